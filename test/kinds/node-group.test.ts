// Which group a node is in is one rule (kinds/registry.ts groupOfNode), shared by the plan's node
// picture and the roll's validation: the group read with its instance first, then the group a
// kind's own label names. Before, the plan knew only instance ids and the engine also read the
// EKS nodegroup label itself, so a node detached for surge was in a group for the roll and in
// none for the plan.
import { describe, expect, it } from "vitest";
import { groupOfNode } from "../../src/kinds/registry.js";
import { nodeInfo } from "../../src/plan/read.js";
import { DETACHED_LABEL, type LiveGroup } from "../../src/plan/index.js";
import type { Node } from "../../src/ports/index.js";

const group = (name: string, kind: LiveGroup["kind"], ids: string[]) =>
  ({ name, kind, instances: ids.map((id) => ({ id })) }) as unknown as LiveGroup;

const node = (name: string, id: string, labels: Record<string, string> = {}): Node =>
  ({
    metadata: { name, labels, creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: { providerID: `aws:///eu-west-1a/${id}` },
    status: { conditions: [{ type: "Ready", status: "True" }] },
  }) as unknown as Node;

const groups = [group("web", "self-managed", ["i-1"]), group("sys", "managed", ["i-2"])];
const groupOf = groupOfNode(groups);

describe("which group a node is in", () => {
  it("is the group its instance was read in", () => {
    expect(groupOf(node("a", "i-1"))).toBe("web");
    expect(groupOf(node("b", "i-2"))).toBe("sys");
  });

  it("is the group the surge mark names for an instance detached from its group", () => {
    expect(groupOf(node("c", "i-9", { [DETACHED_LABEL]: "web" }))).toBe("web");
  });

  it("is the node group EKS's label names for an instance in no group read", () => {
    expect(groupOf(node("d", "i-8", { "eks.amazonaws.com/nodegroup": "sys" }))).toBe("sys");
  });

  it("prefers the instance read over any label on the node", () => {
    const relabelled = node("e", "i-1", { "eks.amazonaws.com/nodegroup": "sys" });
    expect(groupOf(relabelled)).toBe("web");
  });

  it("is no group for a node nothing claims", () => {
    expect(groupOf(node("f", "i-7", { team: "x" }))).toBeUndefined();
  });

  it("is the same for the plan's picture of a node", () => {
    const detached = node("c", "i-9", { [DETACHED_LABEL]: "web" });
    expect(nodeInfo(detached, groupOf).group).toBe("web");
    expect(nodeInfo(node("f", "i-7"), groupOf).group).toBeUndefined();
  });
});
