// A loopback TCP proxy that misbehaves like a bad network between a client and `sandbox serve`:
// a seeded share of connections is reset (before the request reaches the server, or after it
// was served and before the answer gets back) or stalls (from some point on, no bytes either
// way and no close). Rules can also single out connections by what they carry — the proxy
// reads the plain HTTP going through — so that, say, the first node watch and the first
// DescribeAutoScalingGroups are certain to meet a stall.
import { connect, createServer, type Server, type Socket } from "node:net";
import { Random } from "../../src/sandbox/model/random.js";

export type Fate = "pass" | "reset-before" | "reset-after" | "stall";

export interface ChaosOptions {
  seed: number;
  /** Share of connections reset (half before the request is sent on, half after). */
  reset: number;
  /** Share of connections that stall after a random number of answer bytes. */
  stall: number;
  /** The connection of the first request (or body) that matches is given this fate. */
  rules?: { match: RegExp; fate: Fate }[];
}

export interface ChaosProxy {
  url: string;
  port: number;
  /** What happened, by fate, and what each special rule caught. */
  counts: Record<Fate, number>;
  caught: string[];
  /** Stop misbehaving (every later connection passes). */
  calm(): void;
  close(): Promise<void>;
}

export async function startChaosProxy(target: number, o: ChaosOptions): Promise<ChaosProxy> {
  const random = new Random(o.seed);
  const counts: Record<Fate, number> = { pass: 0, "reset-before": 0, "reset-after": 0, stall: 0 };
  const caught: string[] = [];
  const rules = [...(o.rules ?? [])];
  const open = new Set<Socket>();
  let calm = false;

  /** A rule's fate for what a chunk carries (each rule catches one connection). */
  const ruled = (chunk: string): Fate | undefined => {
    if (calm) return undefined;
    const i = rules.findIndex((r) => r.match.test(chunk));
    if (i < 0) return undefined;
    const [r] = rules.splice(i, 1);
    const line = chunk.split("\r\n")[0] ?? "";
    caught.push(
      `${r!.fate}: ${line.startsWith("POST / ") ? (/Action=\w+/.exec(chunk)?.[0] ?? line) : line}`,
    );
    return r!.fate;
  };

  const drawn = (): Fate => {
    if (calm) return "pass";
    const roll = random.next();
    if (roll < o.reset / 2) return "reset-before";
    if (roll < o.reset) return "reset-after";
    if (roll < o.reset + o.stall) return "stall";
    return "pass";
  };

  const server: Server = createServer((client) => {
    open.add(client);
    const upstream = connect(target, "127.0.0.1");
    open.add(upstream);
    let fate: Fate | undefined;
    let stalled = false;
    // Answer bytes let through before a stall: somewhere in the first answer, or a watch's.
    let stallAfter = random.int(4096);
    let answered = 0;
    const kill = (s: Socket) => (s.resetAndDestroy ? s.resetAndDestroy() : s.destroy());
    client.on("data", (chunk: Buffer) => {
      // A rule may single out any request on the connection (a keep-alive connection carries
      // many); other connections draw their fate once, with their first request.
      const rule = ruled(chunk.toString("latin1"));
      if (rule || fate === undefined) {
        fate = rule ?? drawn();
        counts[fate]++;
        if (rule === "stall") stallAfter = answered + random.int(512);
        if (fate === "reset-before") return void (kill(client), upstream.destroy());
      }
      if (!stalled) upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (stalled) return;
      if (fate === "reset-after") return void (kill(client), upstream.destroy());
      if (fate === "stall" && answered + chunk.length > stallAfter) {
        // No more bytes either way, and no close: the client must notice by itself.
        stalled = true;
        client.write(chunk.subarray(0, Math.max(0, stallAfter - answered)));
        return;
      }
      answered += chunk.length;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", () => (stalled ? undefined : end()));
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
    client.on("close", () => open.delete(client));
    upstream.on("close", () => open.delete(upstream));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    caught,
    calm: () => void (calm = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
