// Building a world keeps its pods compactly (issue 14: a 3-million-pod world in one heap with
// noderoll's plan) without changing anything the ports show: these figures are the demo
// world's as they were when every pod kept its own uid string.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/ports/cluster.js";
import { World } from "../../src/sandbox/world/world.js";

async function pod(world: World, namespace: string, name: string): Promise<Pod> {
  const list = await world.cluster.listPods(namespace, { fieldSelector: `metadata.name=${name}` });
  return list.items[0] as Pod;
}

describe("a world's pods, as the ports show them", () => {
  it("have the uids drawn from the seeded stream when they were created", async () => {
    const world = World.demo();
    const exporter = await pod(world, "monitoring", "node-exporter-99979");
    expect(exporter.metadata.uid).toBe("00000017-c034-4ec4-a23c-917a75b9bd13");
    const dns = await pod(world, "kube-system", "coredns-1feb35e0a0-82bd8");
    expect(dns.metadata.uid).toBe("00000038-d973-4e9f-ab8d-b9dda109fb09");
    // Objects made after the pods draw on from where the pods' uids left the stream.
    expect(world.kube.uid()).toBe("00000039-1497-40fc-a627-2f9a3f7a6851");
    expect(world.random.next()).toBe(0.05699582048691809);
  });
});
