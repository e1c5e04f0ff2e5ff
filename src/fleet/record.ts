// What a fleet leaves on each cluster it rolls, so that any run on any machine sees the same
// fleet and a lost runner loses nothing (issue 49): the promotion (the release as the fleet file
// asks for it), the release it was pinned to when the first stage started, and how this
// cluster's roll went. The application keeps it on a Lease in kube-system, beside the cluster's
// lock; here it is plain data.
import type { Target } from "../policy/schema.js";
import type { Fleet } from "./schema.js";

export interface FleetRecord {
  fleet: string;
  /** The release as the fleet file asks for it; a new one is a new promotion. */
  promotion: string;
  /** The release every cluster of this promotion is rolled to (latest resolved once). */
  release: Target;
  /**
   * The AMIs the first stage's `$Latest` self-managed groups ran when it started: a later
   * cluster's group is rolled to its template's newest version running one of them.
   */
  images?: string[];
  stage: string;
  state: "rolling" | "succeeded" | "failed";
  startedAt: string;
  finishedAt?: string;
  /** The run that rolled it: its page, or host and process. */
  run?: string;
  /** Why it failed, in the apply's words. */
  message?: string;
}

/** The promotion a fleet file asks for: its name and release, as a stable string. */
export function promotionOf(fleet: Fleet): string {
  const r = fleet.release;
  const keys = ["kubernetesVersion", "releaseVersion", "launchTemplateVersion"] as const;
  return `${fleet.metadata.name}:${keys.map((k) => `${k}=${r[k] === undefined ? "" : String(r[k])}`).join(",")}`;
}

/** A record read back from a cluster, or why it is not one: never trusted blindly. */
export function parseRecord(text: string | undefined): FleetRecord | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as Partial<FleetRecord>;
    const states = ["rolling", "succeeded", "failed"];
    if (
      typeof r.fleet !== "string" ||
      typeof r.promotion !== "string" ||
      typeof r.stage !== "string" ||
      typeof r.startedAt !== "string" ||
      !states.includes(String(r.state)) ||
      r.release === null ||
      typeof r.release !== "object"
    )
      return undefined;
    return r as FleetRecord;
  } catch {
    return undefined;
  }
}
