// Scenario `scaleIns`: someone else scales a group in, at a moment or when the timeline first
// shows something happen to it (a roll's first cordon). Either the desired capacity is lowered —
// the group's termination policy picks what goes — or chosen instances are terminated with a
// decrement, as the cluster autoscaler and a person at the console do.
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { AsgRec, InstanceRec } from "../model/records.js";
import type { ScaleIn } from "../scenarios/actors.js";
import type { AutoScalingSim } from "./aws/auto-scaling.js";
import type { KubeSim } from "./kube/kube.js";

export interface ScaleInView {
  clock: VirtualClock;
  timeline: Timeline;
  autoScaling: AutoScalingSim;
  kube: Pick<KubeSim, "nodes">;
  /** A group by its Auto Scaling group name or its EKS node group name. */
  groupOf(name: string): AsgRec;
}

/** The instances `s.terminate` takes: by launch time, or those whose nodes are cordoned. */
function picked(view: ScaleInView, g: AsgRec, s: ScaleIn): InstanceRec[] {
  const active = view.autoScaling.active(g).sort((a, b) => a.launchTime - b.launchTime);
  if (s.pick === "newest") active.reverse();
  const pool =
    s.pick === "draining"
      ? active.filter((i) => view.kube.nodes.get(i.nodeName)?.unschedulable === true)
      : active;
  return pool.slice(0, s.terminate);
}

function scaleIn(view: ScaleInView, s: ScaleIn): void {
  const g = view.groupOf(s.group);
  if (s.desired !== undefined) {
    view.autoScaling.setCapacity(g, { desired: s.desired }, s.by);
    return;
  }
  for (const i of picked(view, g, s)) {
    if (g.desired <= g.min) break;
    view.autoScaling.terminateInGroup(i.id, true, s.by);
  }
}

/** Each scale-in at its moment, or on its group's first `after` event. */
export function scheduleScaleIns(view: ScaleInView, list: readonly ScaleIn[]): void {
  for (const s of list) {
    if (s.at !== undefined) {
      view.clock.after(s.at * 1000, () => scaleIn(view, s));
      continue;
    }
    const group = view.groupOf(s.group);
    const names = new Set([group.name, group.nodegroup ?? group.name]);
    const stop = view.timeline.subscribe((e) => {
      if (e.type !== s.after || (e.group !== undefined && !names.has(e.group))) return;
      stop();
      // After the event has been recorded, as a person reacting to it would.
      view.clock.after(0, () => scaleIn(view, s));
    });
  }
}
