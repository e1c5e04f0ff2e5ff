// Progress while live state is read, shared by the command line and the action. Reading a big
// cluster takes a while (pods are listed node by node); a terminal that says
// nothing for a minute looks hung. The ports are wrapped to count the calls made and the
// nodes and pods listed, and a line says how far the read has got.
export interface ReadStats {
  requests: number;
  nodes: number;
  pods: number;
}

function listed(result: unknown): number {
  const items = (result as { items?: unknown })?.items;
  return Array.isArray(items) ? items.length : 0;
}

/** The same object, its methods (and its nested objects' methods) counted into `stats`. */
export function counted<T extends object>(target: T, stats: ReadStats): T {
  return new Proxy(target, {
    get(obj, key) {
      // The real object as receiver: getters and private fields work as without the proxy.
      const value = Reflect.get(obj, key) as unknown;
      if (typeof value === "function")
        return (...args: unknown[]) => {
          stats.requests += 1;
          const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (out instanceof Promise)
            return out.then((r) => {
              if (key === "listNodes") stats.nodes += listed(r);
              if (key === "listPods") stats.pods += listed(r);
              return r;
            });
          return out;
        };
      if (value && typeof value === "object" && key !== "clock") return counted(value, stats);
      return value;
    },
  });
}

export function readLine(stats: ReadStats, elapsedMs: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `reading live state · ${Math.round(elapsedMs / 1000)}s · ${n(stats.requests)} requests · ${n(stats.nodes)} nodes and ${n(stats.pods)} pods listed`;
}

/** Run `read` over counted ports, writing a progress line every `everyMs` of wall time. */
export async function withReadProgress<P extends { cloud: object; cluster: object }, T>(
  ports: P,
  write: (line: string) => void,
  read: (ports: P) => Promise<T>,
  everyMs = 5000,
): Promise<T> {
  const stats: ReadStats = { requests: 0, nodes: 0, pods: 0 };
  const wrapped = {
    ...ports,
    cloud: counted(ports.cloud, stats),
    cluster: counted(ports.cluster, stats),
  };
  const started = Date.now();
  const timer = setInterval(() => write(`${readLine(stats, Date.now() - started)}\n`), everyMs);
  timer.unref();
  try {
    return await read(wrapped);
  } finally {
    clearInterval(timer);
  }
}
