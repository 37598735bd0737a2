/** The simulated file system snapshot, rendered per REST version. */
import { atLeast } from "../../rest-spec/versions.js";
import { timeRemaining } from "./file-system.js";
import { type FieldGate, gateFields } from "./versioned.js";

export interface SnapshotRec {
  id: string;
  name: string;
  suffix: string;
  /** Name and id of the source file system (file systems are never renamed). */
  source: string;
  sourceId: string;
  created: number;
  destroyed: boolean;
  destroyedAt: number | null;
  /** The policy and the rule that made it; `ruleKey` lets a policy update know which snapshots a rule owns. */
  policy: { id: string; name: string; ruleKey: string } | null;
}

/**
 * Stores a new, live snapshot of `fs` named `<fs>.<suffix>`; every path that takes one (the API, policy runs,
 * scenarios) makes it the same way.
 */
export function addSnapshot(
  state: { snapshots: Map<string, SnapshotRec>; newId(): string },
  fs: { name: string; id: string },
  suffix: string,
  created: number,
  policy: SnapshotRec["policy"] = null,
): SnapshotRec {
  const snap: SnapshotRec = {
    id: state.newId(),
    name: `${fs.name}.${suffix}`,
    suffix,
    source: fs.name,
    sourceId: fs.id,
    created,
    destroyed: false,
    destroyedAt: null,
    policy,
  };
  state.snapshots.set(snap.name, snap);
  return snap;
}

const SNAPSHOT_GATES: readonly FieldGate[] = [
  ["destroyed", "1.1"],
  // 1.x's flat source fields; 2.x folds them into `source`, a FixedLocationReference.
  ["source_destroyed", "1.1", "1.12"],
  ["time_remaining", "1.1"],
  ["policy", "1.5"],
  ["id", "1.8"],
  ["source_id", "1.8", "1.12"],
  ["owner", "1.9"],
  ["owner_destroyed", "1.9"],
  ["source_is_local", "1.9", "1.12"],
  ["source_location", "1.9", "1.12"],
  ["source_display_name", "1.9", "1.12"],
];

export interface SnapshotContext {
  now: number;
  arrayName: string;
  arrayId: string;
  sourceDestroyed: boolean;
  /** Current name of the snapshot's policy (policies can be renamed before 1.12). */
  policyName: string | undefined;
}

export function renderSnapshot(
  s: SnapshotRec,
  version: string,
  ctx: SnapshotContext,
): Record<string, unknown> {
  const array = { name: ctx.arrayName, id: ctx.arrayId, resource_type: "arrays" };
  const source = atLeast(version, "2.0")
    ? {
        name: s.source,
        id: s.sourceId,
        resource_type: "file-systems",
        location: array,
        display_name: s.source,
        is_local: true,
      }
    : s.source;
  return gateFields(
    {
      name: s.name,
      created: s.created,
      suffix: s.suffix,
      source,
      destroyed: s.destroyed,
      source_destroyed: ctx.sourceDestroyed,
      time_remaining: timeRemaining(s.destroyedAt, ctx.now),
      policy:
        s.policy === null
          ? null
          : {
              name: ctx.policyName ?? s.policy.name,
              id: s.policy.id,
              resource_type: "policies",
              location: array,
              display_name: ctx.policyName ?? s.policy.name,
              is_local: true,
            },
      id: s.id,
      source_id: s.sourceId,
      owner: { name: s.source, id: s.sourceId, resource_type: "file-systems" },
      owner_destroyed: ctx.sourceDestroyed,
      source_is_local: true,
      source_location: array,
      source_display_name: s.source,
    },
    version,
    SNAPSHOT_GATES,
  );
}
