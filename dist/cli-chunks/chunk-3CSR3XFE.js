import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);
if (Number(process.versions.node.split('.')[0]) < 24) { console.error(`noderoll needs Node.js 24 or later; this is ${process.version}. Use the project's own (npm ci installs it): npx node ${process.argv.slice(1).join(' ')}`); process.exit(2); }
import {
  KubeApiError
} from "./chunk-UJJBVVDI.js";

// src/sandbox/wire/kube-watch.ts
var WatchHub = class {
  /** `kinds`: what to keep history of — a tap on budgets makes the simulator compute their
   * status at every pod event (pdb-events.ts), so a hub that serves no budget watch leaves them. */
  constructor(kube, limit = 1e4, kinds = ["nodes", "pods", "poddisruptionbudgets"]) {
    this.kube = kube;
    this.limit = limit;
    this.kinds = kinds;
    this.floor = kube.rv;
    this.last = kube.rv;
    this.#nodeTap = {
      filter: () => true,
      stream: { push: (e) => this.#record("nodes", e) }
    };
    this.#podTap = {
      filter: () => true,
      stream: { push: (e) => this.#record("pods", e) }
    };
    this.#pdbTap = {
      filter: () => true,
      stream: {
        push: (e) => this.#record("poddisruptionbudgets", e)
      }
    };
    if (kinds.includes("nodes")) kube.addNodeWatcher(this.#nodeTap);
    if (kinds.includes("pods")) kube.addPodWatcher(this.#podTap);
    if (kinds.includes("poddisruptionbudgets")) kube.addPdbWatcher(this.#pdbTap);
  }
  kube;
  limit;
  kinds;
  history = [];
  /** The oldest resourceVersion a watch may start from; older ones are 410 Gone. */
  floor;
  /** The newest stamp handed out. */
  last;
  #subs = /* @__PURE__ */ new Set();
  #nodeTap;
  #podTap;
  #pdbTap;
  /** Stop listening to the world (the server is closing). */
  close() {
    if (this.kinds.includes("nodes")) this.kube.removeNodeWatcher(this.#nodeTap);
    if (this.kinds.includes("pods")) this.kube.removePodWatcher(this.#podTap);
    if (this.kinds.includes("poddisruptionbudgets")) this.kube.removePdbWatcher(this.#pdbTap);
  }
  #record(kind, e) {
    const kube = this.kube;
    const objectRv = Number(e.object.metadata.resourceVersion ?? 0);
    let rv = objectRv > this.last ? objectRv : this.last;
    let object = e.object;
    if (e.type === "DELETED") {
      rv = kube.nextRv();
      object = { ...e.object, metadata: { ...e.object.metadata, resourceVersion: String(rv) } };
    }
    this.last = Math.max(this.last, rv);
    const stamped = { rv, kind, type: e.type, object };
    this.history.push(stamped);
    if (this.history.length > this.limit + (this.limit >> 2)) {
      const dropped = this.history.splice(0, this.history.length - this.limit);
      this.floor = Math.max(this.floor, dropped[dropped.length - 1].rv);
    }
    for (const s of this.#subs) if (s.kind === kind && s.filter(object)) s.send(stamped);
  }
  /** Events after `rv`, or undefined when `rv` is older than the history reaches. */
  since(rv, kind, filter) {
    if (rv < this.floor) return void 0;
    return this.history.filter((e) => e.rv > rv && e.kind === kind && filter(e.object));
  }
  subscribe(s) {
    this.#subs.add(s);
    return () => this.#subs.delete(s);
  }
  /** Watches open now (what the time driver asks: is every client just waiting?). */
  get open() {
    return this.#subs.size;
  }
};
var GONE = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "too old resource version (sandbox: watch expired)",
  reason: "Expired",
  code: 410
};
function watchStream(plan) {
  let out;
  let stalled = false;
  const line = (type, object) => JSON.stringify({ type, object: plan.render(object) }) + "\n";
  const pending = plan.initial.map((e) => line(e.type, e.object));
  for (const e of plan.afterInitial ?? []) pending.push(JSON.stringify(e) + "\n");
  const write = (text) => stalled ? false : out ? !out.writableEnded && !out.destroyed && out.write(text) : pending.push(text);
  const unsubscribe = plan.hub.subscribe({
    kind: plan.kind,
    filter: plan.filter,
    send: (e) => write(line(e.type, e.object))
  });
  return (res) => {
    out = res;
    res.on("error", () => void 0);
    for (const text of pending.splice(0)) res.write(text);
    const timers = [];
    if (plan.bookmarks) {
      const bookmark = () => write(JSON.stringify({ type: "BOOKMARK", object: plan.bookmarkObject() }) + "\n");
      timers.push(setInterval(bookmark, plan.bookmarkMs).unref());
    }
    if (plan.timeoutMs !== void 0) timers.push(setTimeout(() => res.end(), plan.timeoutMs));
    const trouble = plan.trouble;
    const struck = trouble && plan.after?.(trouble.afterMs, () => {
      if (trouble.kind === "gone")
        res.end(JSON.stringify({ type: "ERROR", object: GONE }) + "\n");
      else if (trouble.kind === "endEarly") res.end();
      else stalled = true;
    });
    res.on("close", () => {
      unsubscribe();
      struck?.cancel();
      for (const t of timers) clearTimeout(t);
    });
  };
}

// src/sandbox/ports/selectors.ts
var everything = () => true;
function parseLabelSelector(text) {
  if (!text || !text.trim()) return everything;
  const reqs = [];
  const parts = [];
  let depth = 0;
  let cur = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts) {
    const p = raw.trim();
    let m;
    if (m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(p)) {
      const values = (m[3] ?? "").split(",").map((v) => v.trim());
      reqs.push({ key: m[1], op: m[2], values });
    } else if (m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(p)) {
      reqs.push({ key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] ?? "" });
    } else if (m = /^!([\w./-]+)$/.exec(p)) {
      reqs.push({ key: m[1], op: "!exists" });
    } else if (m = /^([\w./-]+)$/.exec(p)) {
      reqs.push({ key: m[1], op: "exists" });
    } else {
      throw new KubeApiError(400, "BadRequest", `unable to parse requirement: "${p}"`);
    }
  }
  return (labels) => reqs.every((r) => matches(r, labels));
}
function matches(r, labels) {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case "=":
      return has && v === r.value;
    case "!=":
      return !has || v !== r.value;
    case "in":
      return has && r.values.includes(v);
    case "notin":
      return !has || !r.values.includes(v);
    case "exists":
      return has;
    case "!exists":
      return !has;
  }
}
function parseFieldSelector(text, supported) {
  if (!text || !text.trim()) return [];
  return text.split(",").map((raw) => {
    const m = /^\s*([\w.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new KubeApiError(400, "BadRequest", `invalid field selector: "${raw}"`);
    const field = m[1];
    if (!supported.includes(field))
      throw new KubeApiError(400, "BadRequest", `field label not supported: ${field}`);
    return { field, op: m[2] === "!=" ? "!=" : "=", value: m[3] ?? "" };
  });
}

export {
  parseLabelSelector,
  parseFieldSelector,
  WatchHub,
  watchStream
};
