/**
 * The lifecycle trait of snapshots (destroy, recover, eradicate come from catalogue/generic/lifecycle.ts): a
 * snapshot is read by name or source, and its facts are its file system, age and policy.
 */
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { type Field, rich } from "../../src/core/presentation/message.js";
import { formatDuration } from "../../src/core/words/units.js";
import type { Snapshot } from "../../src/flashblade/types.js";
import type { Lifecycle, LifecycleItem } from "../catalogue/spec.js";
import { refuseRetained } from "../shared/retention.js";

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
    const fs = s.source ?? s.owner?.name;
    // A legal hold on a path of its file system (REST 2.17+) keeps the held files in the snapshot too.
    if (fs) await refuseRetained(ctx, fs, "/");
    const created = s.created === undefined ? "–" : formatWhen(s.created, ctx.now(), ctx.timeZone);
    const facts: Field[] = [
      { label: "File system", value: rich`${s.source ?? s.owner?.name ?? "?"}` },
      { label: "Created", value: rich`${created}` },
    ];
    if (s.policy?.name) facts.push({ label: "Made by policy", value: rich`${s.policy.name}` });
    if (s.destroyed && s.time_remaining !== undefined)
      facts.push({ label: "Eradicated automatically in", value: rich`${formatDuration(s.time_remaining)}` });
    return {
      facts,
      state: {
        exists: true,
        destroyed: s.destroyed ?? false,
        source: s.source ?? null,
        created: s.created ?? null,
      },
      lost: `the point-in-time copy ${s.name} cannot be recovered afterwards.`,
    };
  },
};
