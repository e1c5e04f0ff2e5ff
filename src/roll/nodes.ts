// A watched cache of the cluster's nodes (informer.ts): waits for node state read it and wake on
// change instead of polling the API server.
import {
  instanceIdOf,
  listAll,
  pageOf,
  type Node,
  type WatchEvent,
  type WatchOptions,
} from "../ports/index.js";
import { Informer } from "./informer.js";

export class NodeCache extends Informer<Node> {
  readonly byName = new Map<string, Node>();
  private readonly nameOfInstance = new Map<string, string>();
  /**
   * Nodes in the order they joined the cache after its first list (a relist's new ones too):
   * what a reader that remembered `joins` has not seen yet (`joinedSince`).
   */
  private readonly joined: string[] = [];
  private listed = false;

  /** A mark for `joinedSince`: how many nodes have joined so far. */
  get joins(): number {
    return this.joined.length;
  }

  /** The nodes that joined after `mark` (a value of `joins`) and are still here. */
  joinedSince(mark: number): Node[] {
    const nodes: Node[] = [];
    for (let i = mark; i < this.joined.length; i++) {
      const n = this.byName.get(this.joined[i] as string);
      if (n) nodes.push(n);
    }
    return nodes;
  }

  byInstance(id: string): Node | undefined {
    const name = this.nameOfInstance.get(id);
    return name === undefined ? undefined : this.byName.get(name);
  }

  /** Cache `n`; `joins`: it is new to the cache (a watch runs only after the first list). */
  private put(n: Node, joins = !this.byName.has(n.metadata.name)): void {
    if (joins) this.joined.push(n.metadata.name);
    this.byName.set(n.metadata.name, n);
    const id = instanceIdOf(n);
    if (id) this.nameOfInstance.set(id, n.metadata.name);
  }

  private remove(n: Node): void {
    this.byName.delete(n.metadata.name);
    const id = instanceIdOf(n);
    if (id && this.nameOfInstance.get(id) === n.metadata.name) this.nameOfInstance.delete(id);
  }

  protected list() {
    return listAll((cont) => this.ctx.cluster.listNodes(pageOf(cont)));
  }

  protected watch(opts: WatchOptions) {
    return this.ctx.cluster.watchNodes(opts);
  }

  protected reset(items: Node[]): void {
    const before = this.listed ? new Set(this.byName.keys()) : undefined;
    this.byName.clear();
    this.nameOfInstance.clear();
    for (const n of items) this.put(n, before !== undefined && !before.has(n.metadata.name));
    this.listed = true;
  }

  protected apply(e: WatchEvent<Node>): void {
    if (e.type === "DELETED") this.remove(e.object);
    else this.put(e.object);
  }
}
