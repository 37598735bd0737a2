/**
 * The lifecycle trait of snapshots (destroy, recover, eradicate come from catalogue/generic/lifecycle.ts): a
 * snapshot is read by name or source, and its facts are its file system, age and policy.
 */
import type { Snapshot } from "../../src/flashblade/types.js";
import type { Lifecycle, LifecycleItem } from "../catalogue/spec.js";
import { snapshotFacts, snapshotState } from "../shared/snapshot-facts.js";

const asSnapshot = (item: LifecycleItem) => item as unknown as Snapshot;

export const SNAPSHOT_LIFECYCLE: Lifecycle = {
  summaries: {
    destroy: "Destroy a snapshot (recoverable until eradicated)",
    recover: "Recover a destroyed snapshot",
    eradicate: "Eradicate a destroyed snapshot: permanent, needs approval",
  },
  examples: {
    destroy: ["home.daily.1"],
    recover: ["projects.q3-close"],
    eradicate: ["projects.q3-close"],
  },
  notFoundHint:
    "Snapshot names look like <file system>.<suffix>; list them with /array snapshot list --fs <file system>.",
  // Snapshots have no `names` parameter: the client selects them by name or source.
  read: async (ctx, name) => (await ctx.array.snapshots.get(name)) as LifecycleItem | undefined,
  async view(ctx, item) {
    const s = asSnapshot(item);
    return {
      facts: snapshotFacts(s, ctx.now(), ctx.timeZone),
      state: snapshotState(s),
      lost: `the point-in-time copy ${s.name} cannot be recovered afterwards.`,
    };
  },
  recoverState: (item) => snapshotState(asSnapshot(item)),
};
