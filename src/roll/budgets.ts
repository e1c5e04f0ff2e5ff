// PodDisruptionBudgets as the drains of a run see them: one watched cache (informer.ts) of every
// namespace's budgets, held while any drain evicts, so that a drain does not ask for an eviction
// its pod's budget is sure to refuse. The eviction API stays the only authority: the cache only
// holds back requests whose answer is certain — the pod is Ready (an unready pod may be let go
// by the unhealthy pod eviction policy), exactly one budget selects it (several: the API answers
// 500, which the drain reports), the budget's status is current (status.observedGeneration not
// behind metadata.generation) and shows status.disruptionsAllowed 0. Then the API server would
// answer 429 (https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/, and the
// PodDisruptionBudget status in the policy/v1 API reference).
import {
  hasReadyCondition,
  KubeApiError,
  SETTLED,
  listAll,
  pageOf,
  type Pod,
  type PodDisruptionBudget,
  type WatchEvent,
  type WatchOptions,
} from "../ports/index.js";
import { matchesSelector } from "../plan/index.js";
import { RunPart, type RollContext } from "./context.js";
import { Informer } from "./informer.js";

/**
 * Whether the eviction of `pod` surely takes a disruption from its budget: a Running, Ready pod
 * not already being deleted. The eviction API lets a finished, Pending or deleted pod go without
 * asking its budgets (canIgnorePDB in the Kubernetes source,
 * pkg/registry/core/pod/storage/eviction.go), and an unready one often without taking a
 * disruption (the unhealthy pod eviction policy: always, or while the budget is healthy). Any
 * other eviction is neither held back by the cache nor counted in it: counted, its 201 takes a
 * disruption off the cached budget that the API server may never have taken, holding other pods
 * back for up to a minute; not counted, it costs at most a 429 that the drain asks again after.
 */
export function takesDisruption(pod: Pod): boolean {
  if (pod.status.phase !== "Running" || pod.metadata.deletionTimestamp !== undefined) return false;
  return hasReadyCondition(pod.status.conditions);
}

const keyOf = (b: PodDisruptionBudget) => `${b.metadata.namespace ?? "default"}/${b.metadata.name}`;

export class BudgetCache extends Informer<PodDisruptionBudget> {
  /** namespace → name → budget */
  private readonly byNamespace = new Map<string, Map<string, PodDisruptionBudget>>();
  /**
   * The watch is refused (no RBAC "watch" on poddisruptionbudgets, say): what is cached may be
   * old, so it holds nothing back and the drains ask the eviction API as before.
   */
  private refused = false;
  /** Drains waiting for a budget to change, by "namespace/name". */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** budgetOf's answers by namespace and labels (pods of one controller share them), until a
   * budget comes, goes or changes its selector. */
  private readonly selecting = new Map<string, string | undefined>();
  /** Evictions asked under a budget and not yet answered: each may take one disruption. */
  private readonly asking = new Map<string, number>();

  protected list() {
    return listAll((cont) => this.ctx.cluster.listPodDisruptionBudgets(undefined, pageOf(cont)));
  }

  protected watch(opts: WatchOptions) {
    return this.ctx.cluster.watchPodDisruptionBudgets(undefined, opts);
  }

  protected apply(e: WatchEvent<PodDisruptionBudget>): void {
    this.refused = false;
    const key = keyOf(e.object);
    const was = this.get(key);
    if (
      e.type !== "MODIFIED" ||
      JSON.stringify(was?.spec.selector) !== JSON.stringify(e.object.spec.selector)
    )
      this.selecting.clear();
    if (e.type !== "DELETED") this.put(e.object);
    else
      this.byNamespace
        .get(e.object.metadata.namespace ?? "default")
        ?.delete(e.object.metadata.name);
    this.wake(key);
  }

  private wake(key: string): void {
    const w = this.waiting.get(key);
    this.waiting.delete(key);
    for (const resolve of w ?? []) resolve();
  }

  protected override reset(items: PodDisruptionBudget[]): void {
    this.byNamespace.clear();
    this.selecting.clear();
    for (const b of items) this.put(b);
    // Listed again: every budget may have changed.
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const resolve of all) resolve();
  }

  /** Resolves when the budget changes (its watch event, or a new list), or after `maxMs`. */
  async budgetChanged(key: string, maxMs: number, signal: AbortSignal): Promise<void> {
    const wake = new AbortController();
    let mine = () => {};
    const woken = new Promise<void>((resolve) => {
      mine = resolve;
      const list = this.waiting.get(key);
      if (list) list.push(resolve);
      else this.waiting.set(key, [resolve]);
    });
    const until = AbortSignal.any([wake.signal, signal]);
    await Promise.race([woken, this.ctx.clock.sleep(maxMs, until).catch(() => undefined)]);
    wake.abort(SETTLED);
    const left = this.waiting.get(key)?.filter((r) => r !== mine);
    if (left?.length) this.waiting.set(key, left);
    else this.waiting.delete(key);
  }

  protected override failed(e: unknown): void {
    if (!(e instanceof KubeApiError) || ![401, 403, 404, 405].includes(e.status)) return;
    this.refused = true;
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }

  private put(b: PodDisruptionBudget): void {
    const ns = b.metadata.namespace ?? "default";
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    m.set(b.metadata.name, b);
  }

  /** "namespace/name" of the one budget that selects the pod; undefined for none or several. */
  budgetOf(pod: Pod): string | undefined {
    const ns = pod.metadata.namespace ?? "default";
    const labels = pod.metadata.labels ?? {};
    const memo = `${ns}\n${Object.keys(labels)
      .sort()
      .map((k) => `${k}=${labels[k]}`)
      .join(",")}`;
    if (this.selecting.has(memo)) return this.selecting.get(memo);
    let found: PodDisruptionBudget | undefined;
    let several = false;
    for (const b of this.byNamespace.get(ns)?.values() ?? []) {
      if (!matchesSelector(b.spec.selector, labels)) continue;
      several = found !== undefined;
      if (several) break;
      found = b;
    }
    const key = found && !several ? keyOf(found) : undefined;
    this.selecting.set(memo, key);
    return key;
  }

  /** The budget's resourceVersion as cached (what a granted eviction is measured against). */
  versionOf(key: string): string | undefined {
    return this.get(key)?.metadata.resourceVersion;
  }

  private get(key: string): PodDisruptionBudget | undefined {
    const [ns, name] = key.split("/") as [string, string];
    return this.byNamespace.get(ns)?.get(name);
  }

  /** Whether the eviction API is sure to refuse to evict the pod, which `key` selects alone. */
  refuses(key: string, pod: Pod): boolean {
    const b = this.get(key);
    if (!b || this.refused || !takesDisruption(pod)) return false;
    const generation = b.metadata.generation;
    const observed = b.status?.observedGeneration;
    if (generation !== undefined && (observed === undefined || observed < generation)) return false;
    return (b.status?.disruptionsAllowed ?? 0) - (this.asking.get(key) ?? 0) <= 0;
  }

  /**
   * An eviction is asked under the budget (the cache showed a disruption allowed): until its
   * answer, the disruption it may take is not there for another drain. `answered` with the
   * answer's status; a 201 counts as granted (below).
   */
  ask(key: string): (status: number) => void {
    const version = this.versionOf(key);
    this.asking.set(key, (this.asking.get(key) ?? 0) + 1);
    let done = false;
    return (status) => {
      if (done) return;
      done = true;
      const n = (this.asking.get(key) ?? 1) - 1;
      if (n > 0) this.asking.set(key, n);
      else this.asking.delete(key);
      if (status === 201) this.granted(key, version);
      this.wake(key);
    };
  }

  /**
   * The API server granted an eviction under the budget: it has taken one from
   * disruptionsAllowed, which the watch shows soon. Until it does (the budget's version is still
   * `version`, the one before the eviction), the cache takes it too, so that the drain next in
   * line does not ask for an eviction sure to be refused.
   */
  private granted(key: string, version: string | undefined): void {
    const b = this.get(key);
    if (!b || version === undefined || b.metadata.resourceVersion !== version) return;
    const allowed = Math.max(0, (b.status?.disruptionsAllowed ?? 0) - 1);
    this.put({ ...b, status: { ...b.status, disruptionsAllowed: allowed } });
  }
}

/**
 * How long the cache stays open once no drain holds it: the next drain of a roll usually starts
 * within the boot of a replacement, and would otherwise list the budgets again.
 */
const LINGER_MS = 300_000;

/** The run's budget cache, held by the drains evicting now, open a while after the last. */
interface Held {
  cache: BudgetCache;
  started: Promise<boolean>;
  holders: number;
  idle?: AbortController;
}

async function close(h: Held): Promise<void> {
  h.idle?.abort(SETTLED);
  await h.cache.close();
}

/** The run's cache, while a drain holds it or it lingers; closed with the run at the latest. */
const BUDGETS = new RunPart<Held>("PodDisruptionBudgets", close);

/** Close the run's budget cache now (no drain has held it for LINGER_MS). */
async function closeBudgets(ctx: RollContext, h: Held): Promise<void> {
  if (ctx.state.peek(BUDGETS) !== h) return;
  ctx.state.drop(BUDGETS);
  await close(h);
}

/**
 * The run's budget cache for a drain, and what lets go of it; no cache when it could not be
 * listed (the drain then asks the eviction API as before).
 */
export async function holdBudgets(
  ctx: RollContext,
): Promise<{ cache: BudgetCache | undefined; release: () => void }> {
  const h = ctx.state.of(BUDGETS, (): Held => {
    const cache = new BudgetCache(ctx);
    const started = cache.start().then(
      () => true,
      () => false,
    );
    return { cache, started, holders: 0 };
  });
  h.holders++;
  h.idle?.abort(SETTLED);
  h.idle = undefined;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (--h.holders > 0 || ctx.state.peek(BUDGETS) !== h) return;
    const idle = (h.idle = new AbortController());
    void ctx.clock.sleep(LINGER_MS, idle.signal).then(
      async () => {
        if (h.holders === 0) await closeBudgets(ctx, h);
      },
      () => undefined,
    );
  };
  const ok = await h.started;
  if (!ok && ctx.state.peek(BUDGETS) === h && h.holders === 1) ctx.state.drop(BUDGETS);
  return { cache: ok ? h.cache : undefined, release };
}
