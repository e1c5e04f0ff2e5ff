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

  byInstance(id: string): Node | undefined {
    const name = this.nameOfInstance.get(id);
    return name === undefined ? undefined : this.byName.get(name);
  }

  private put(n: Node): void {
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
    this.byName.clear();
    this.nameOfInstance.clear();
    for (const n of items) this.put(n);
  }

  protected apply(e: WatchEvent<Node>): void {
    if (e.type === "DELETED") this.remove(e.object);
    else this.put(e.object);
  }
}
