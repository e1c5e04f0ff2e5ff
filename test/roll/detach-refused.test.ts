// kOps' TestRollingUpdateDetachFails, as a sandbox case (issue 46, item 3): when Auto Scaling
// refuses DetachInstances (the role may not detach), kOps gives the surge up and replaces the
// instances in place, with no error. Here too — and the events say the surge was given up and
// why; the surge mark comes off the instance that stayed; the invariants are checked after every
// event, with maxUnavailable raised only by the surge.given-up event and never past the surge.
import { describe, expect, it } from "vitest";
import { DETACHED_LABEL } from "../../src/plan/index.js";
import { AwsApiError } from "../../src/ports/index.js";
import { eventLine } from "../../src/render/index.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

/** `w`'s four nodes need a roll; DetachInstances is refused as IAM refuses an action. */
function refusingWorld(): { w: World; asked: string[] } {
  const w = selfManagedWorld([{ name: "w", nodes: 4 }], {
    workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } }],
  });
  const asked: string[] = [];
  w.cloud.autoScaling.detachInstances = async (input) => {
    asked.push(...input.InstanceIds);
    throw new AwsApiError(
      "AccessDenied",
      "User: arn:aws:sts::111122223333:assumed-role/noderoll/ci is not authorized to perform: autoscaling:DetachInstances",
      403,
    );
  };
  return { w, asked };
}

const policy = (surge: number) =>
  policyFor(`groups: [{ name: w, rollingUpdate: { maxSurge: ${surge}, postDrainDelay: 0s } }]\n`);

describe("a detach Auto Scaling refuses", () => {
  it("gives the surge up and replaces the group in place, without error", async () => {
    const { w, asked } = refusingWorld();
    // When the surge is given up, the refused instance carries no mark any more, nor its node.
    const marks: string[] = [];
    const r = await roll(w, policy(1), {}, undefined, (e) => {
      if (e.type !== "surge.given-up") return;
      const inst = w.ec2.instances.get(e.instance)!;
      if (inst.tags.some((t) => t.Key === DETACHED_LABEL)) marks.push("tag");
      if (w.kube.nodes.get(inst.nodeName)?.labels[DETACHED_LABEL] !== undefined)
        marks.push("label");
    });
    expect(marks).toEqual([]);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    // Asked once: a refused permission refuses every instance alike.
    expect(asked).toHaveLength(1);
    const [given] = ofType(r.events, "surge.given-up");
    expect(given).toMatchObject({ group: "w", instance: asked[0], nodes: 1, maxUnavailable: 1 });
    expect(given!.reason).toMatch(/^AccessDenied: .*autoscaling:DetachInstances/);
    expect(eventLine(given!)).toMatch(
      /^w: surge given up, Auto Scaling refused to detach i-\w+ \(AccessDenied: .*\); replacing in place, up to 1 node out of service at once$/,
    );
    expect(ofType(r.events, "instance.detach")).toEqual([]);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(4);
    // Every member new and Ready; no surge mark left on an instance or a node.
    await w.advance(10 * 60_000);
    const live = w.nodes("w").filter((n) => !n.deleted);
    expect(live).toHaveLength(4);
    expect(live.every((n) => n.ready && n.labels[DETACHED_LABEL] === undefined)).toBe(true);
    const tagged = [...w.ec2.instances.values()].filter(
      (i) => i.state !== "terminated" && i.tags.some((t) => t.Key === DETACHED_LABEL),
    );
    expect(tagged).toEqual([]);
  });

  it("gives up the whole surge at once, and the window stays maxSurge + maxUnavailable wide", async () => {
    const { w, asked } = refusingWorld();
    const r = await roll(w, policy(2));
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(asked).toHaveLength(1);
    expect(ofType(r.events, "surge.given-up")).toMatchObject([{ nodes: 2, maxUnavailable: 2 }]);
  });

  it("refused for one instance only (Standby, a lifecycle hook), surges with the next, as kOps", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } }],
    });
    const detach = w.cloud.autoScaling.detachInstances.bind(w.cloud.autoScaling);
    let calls = 0;
    w.cloud.autoScaling.detachInstances = async (input) => {
      if (++calls === 1)
        throw new AwsApiError("ValidationError", "The instance is not in InService.", 400);
      return detach(input);
    };
    const r = await roll(w, policy(1));
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "surge.given-up")).toEqual([]);
    expect(ofType(r.events, "instance.detach")).toHaveLength(1);
  });
});
