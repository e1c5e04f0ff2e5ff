// Ports whose every call is held by the sandbox server as a request in flight from the moment
// it is made (SandboxServer.hold): for a test whose engine runs in the server's own process on
// the world's virtual clock, so that time never jumps while one of its requests is on its way.
// Watches (async iterables, not promises) are left alone, as the server leaves them. Wrap the
// cloud and cluster ports only, never the clock: time stands still while a call is held, so
// nothing inside a held call may wait on the world's clock (give the adapters' retries a real
// sleep).
import type { SandboxServer } from "../../src/sandbox/wire/serve.js";

const isPromise = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as PromiseLike<unknown> | undefined)?.then === "function";

export function heldPorts<T extends object>(server: Pick<SandboxServer, "hold">, target: T): T {
  return new Proxy(target, {
    get(t, key) {
      const v: unknown = Reflect.get(t, key, t);
      if (typeof v === "function")
        return (...args: unknown[]) => {
          const out: unknown = v.apply(t, args);
          return isPromise(out) ? server.hold(out) : out;
        };
      if (v && typeof v === "object") return heldPorts(server, v);
      return v;
    },
  });
}
