// Paginated lists read one page ahead (src/adapters/kubernetes/pages-ahead.ts), against a small
// API server of pages: the next page's request is on the wire before the caller has the page
// before it; every page is asked for once, in order, and a list is never more than one page
// ahead; what the server answers a page asked ahead, an error too, is what the caller gets; one
// that never comes ends by the request deadline, or when the client closes; a read given up
// leaves nothing behind but a bounded few pages, dropped; lists without a limit and single reads
// are not read ahead.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp, type KubeCall } from "../../src/adapters/kubernetes/http.js";
import type { ListEnvelope } from "../../src/adapters/kubernetes/list-body.js";
import { MAX_WAITING, PagesAhead } from "../../src/adapters/kubernetes/pages-ahead.js";
import { eachPage, KubeApiError, NetworkError, pageOf } from "../../src/ports/index.js";

/** Pages of a pod list: page i's token is `c<i>`; 3 pages unless the test says. */
let pages = 3;
/** Statuses to answer instead of a page, by continue token ("" for the first page). */
let failing = new Map<string, number>();
/** Pages the server never answers (their connections stay open, silent). */
let stalled = new Set<string>();
/** Every request, in the order the server received it: its path and continue token. */
let received: { path: string; cont: string; limit: string | null }[] = [];
const waiters: { cont: string; resolve: () => void }[] = [];
let server: Server;
let url = "";

function page(i: number, limit: number): string {
  const items = Array.from({ length: Math.min(limit, 500) }, (_, k) => ({
    metadata: { name: `pod-${i}-${k}`, namespace: "default" },
    spec: { nodeName: "n1", containers: [{ name: "main" }] },
    status: { phase: "Running" },
  }));
  const next = i + 1 < pages ? { continue: `c${i + 1}` } : {};
  return JSON.stringify({
    kind: "PodList",
    apiVersion: "v1",
    metadata: { resourceVersion: "7", ...next },
    items,
  });
}

function answer(req: IncomingMessage): { status: number; body: string } {
  const q = new URL(req.url ?? "/", "http://x").searchParams;
  const cont = q.get("continue") ?? "";
  received.push({
    path: new URL(req.url ?? "/", "http://x").pathname,
    cont,
    limit: q.get("limit"),
  });
  for (const w of waiters.filter((w) => w.cont === cont)) w.resolve();
  const status = failing.get(cont);
  if (status)
    return {
      status,
      body: JSON.stringify({ kind: "Status", code: status, reason: "Expired", message: "gone" }),
    };
  const i = cont ? Number(cont.slice(1)) : 0;
  return { status: 200, body: page(i, Number(q.get("limit") ?? 3)) };
}

/** Resolves once the server has received `times` requests for the page `cont`. */
const asked = (cont: string, times = 1) => {
  const enough = () => received.filter((r) => r.cont === cont).length >= times;
  if (enough()) return Promise.resolve();
  return new Promise<void>((resolve) =>
    waiters.push({ cont, resolve: () => (enough() ? resolve() : undefined) }),
  );
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const { status, body } = answer(req);
      const cont = new URL(req.url ?? "/", "http://x").searchParams.get("continue") ?? "";
      if (stalled.has(cont)) return;
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  pages = 3;
  failing = new Map();
  stalled = new Set();
  received = [];
  waiters.length = 0;
});

/** A client of the test's server; its requests are not retried, and end by `requestTimeoutMs`. */
function client(requestTimeoutMs?: number) {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser(
    { name: "s", server: url, skipTLSVerify: true },
    { name: "u", token: "t" },
  );
  const retry = { sleep: async () => undefined, attempts: 1 };
  const http = new KubeHttp({
    kubeConfig,
    retry,
    ...(requestTimeoutMs !== undefined && { requestTimeoutMs }),
  });
  return { http, cluster: kubernetesCluster(http) };
}

const conts = () => received.map((r) => r.cont);

/**
 * A KubeHttp whose answers the test gives: each json() call waits until the test answers it
 * with a page (`onList` then sees the list, as the real client does before parsing items).
 */
class Scripted {
  readonly calls: { call: KubeCall; answer: (next?: string) => Promise<void> }[] = [];
  json(
    call: KubeCall,
    _eviction: boolean,
    onList?: (l: ListEnvelope) => Promise<void> | undefined,
  ) {
    return new Promise((resolve) => {
      this.calls.push({
        call,
        answer: async (next) => {
          const list = { metadata: { resourceVersion: "1", ...(next && { continue: next }) } };
          await onList?.(list);
          resolve({ ...list, items: [] });
        },
      });
    });
  }
  asked = () => this.calls.map((c) => String(c.call.query?.continue ?? ""));
}

const call = (cont?: string): KubeCall => ({
  method: "GET",
  path: "/api/v1/pods",
  query: { limit: 500, ...(cont && { continue: cont }) },
});

describe("a paginated list, read one page ahead", () => {
  it("asks for the next page as soon as it knows the token, and lets the request leave before the items are read", async () => {
    const http = new Scripted();
    const pagesAhead = new PagesAhead(http as unknown as KubeHttp);
    const first = pagesAhead.list(call());
    const events: string[] = [];
    // Queued before page 1 is answered: it runs in the next turn of the event loop.
    setImmediate(() => events.push("a turn passed"));
    let answered = false;
    const answering = http.calls[0]!.answer("c1").then(() => (answered = true));
    // Page 2 is asked for while page 1's onList runs, before its items are parsed...
    expect(http.asked()).toEqual(["", "c1"]);
    // ...and page 1's items wait a turn of the event loop, in which that request is written.
    await Promise.resolve();
    expect(answered).toBe(false);
    await answering;
    events.push("page 1's items parsed");
    expect(events).toEqual(["a turn passed", "page 1's items parsed"]);
    await first;
  });

  it("is never more than one page ahead: the next page is asked for once the one before is taken", async () => {
    const http = new Scripted();
    const pagesAhead = new PagesAhead(http as unknown as KubeHttp);
    const first = pagesAhead.list(call());
    await http.calls[0]!.answer("c1");
    await first;
    // Page 2 answers, not yet taken: page 3 is not asked for.
    await http.calls[1]!.answer("c2");
    expect(http.asked()).toEqual(["", "c1"]);
    expect(pagesAhead.waiting).toBe(1);
    // Taken: page 3 at once (its token is known), and page 2 is the answer already in hand.
    await pagesAhead.list(call("c1"));
    expect(http.asked()).toEqual(["", "c1", "c2"]);
    // The last page has no token: nothing more is asked.
    await http.calls[2]!.answer();
    await pagesAhead.list(call("c2"));
    expect(http.asked()).toEqual(["", "c1", "c2"]);
    expect(pagesAhead.waiting).toBe(0);
  });

  it("asks for every page once, in order, and reads them whole", async () => {
    pages = 5;
    const { cluster, http } = client();
    const names: string[] = [];
    await eachPage(
      (cont) => cluster.listPods(undefined, pageOf(cont)),
      (items) => names.push(...items.map((p) => p.metadata.name)),
    );
    expect(conts()).toEqual(["", "c1", "c2", "c3", "c4"]);
    expect(names).toHaveLength(5 * 500);
    expect(names[0]).toBe("pod-0-0");
    expect(names.at(-1)).toBe("pod-4-499");
    http.close();
  });

  it("gives the caller what the server answered a page asked ahead, an error too; asked again, it asks afresh", async () => {
    failing.set("c1", 410);
    const { cluster, http } = client();
    await cluster.listPods(undefined, pageOf(undefined));
    await asked("c1");
    const error = await cluster.listPods(undefined, pageOf("c1")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({ status: 410 });
    expect(conts()).toEqual(["", "c1"]);
    failing.clear();
    const again = await cluster.listPods(undefined, pageOf("c1"));
    expect(again.items[0]?.metadata.name).toBe("pod-1-0");
    await asked("c2");
    expect(conts()).toEqual(["", "c1", "c1", "c2"]);
    http.close();
  });

  it("keeps at most MAX_WAITING pages of reads given up, and none of their errors goes unhandled", async () => {
    failing.set("c1", 500);
    const { cluster, http } = client();
    const lists = MAX_WAITING * 2;
    for (let i = 0; i < lists; i++)
      await cluster.listPods(undefined, pageOf(undefined, { labelSelector: `run=${i}` }));
    await asked("c1", lists);
    // Every read was given up after its first page; each asked ahead once, and only the newest
    // MAX_WAITING are kept (the rest dropped): asking for one of the first again asks afresh.
    expect(conts().filter((c) => c === "c1")).toHaveLength(lists);
    await cluster
      .listPods(undefined, pageOf("c1", { labelSelector: "run=0" }))
      .catch(() => undefined);
    expect(conts().filter((c) => c === "c1")).toHaveLength(lists + 1);
    http.close();
  });

  it("ends a page asked ahead that never comes by the request deadline, and at once when the client closes", async () => {
    stalled.add("c1");
    // By its deadline: the caller that takes it gets the NetworkError, not a wait forever.
    const { http, cluster } = client(1500);
    await cluster.listPods(undefined, pageOf(undefined));
    await asked("c1");
    const late = await cluster.listPods(undefined, pageOf("c1")).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(NetworkError);
    expect(late).toMatchObject({ code: "ETIMEDOUT" });
    http.close();
    // Closed: a page asked ahead and never taken ends with the client, as every request does.
    const { http: patient, cluster: other } = client(600_000);
    await other.listPods(undefined, pageOf(undefined, { labelSelector: "x=y" }));
    await asked("c1", 2);
    patient.close();
    const closed = await other
      .listPods(undefined, pageOf("c1", { labelSelector: "x=y" }))
      .catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(NetworkError);
    expect(closed).toMatchObject({ code: "ECONNABORTED" });
  });

  it("does not read ahead a list without a limit, nor anything but lists", async () => {
    const { cluster, http } = client();
    // The server names a next page even so: a list asked for whole is not paginated.
    await cluster.listPods(undefined, {});
    await cluster.listNodes({});
    // Had either been read ahead, its next page would have been asked for before this answer.
    await cluster.getNode("n1").catch(() => undefined);
    expect(received.map((r) => `${r.path}?${r.cont}`)).toEqual([
      "/api/v1/pods?",
      "/api/v1/nodes?",
      "/api/v1/nodes/n1?",
    ]);
    http.close();
  });
});
