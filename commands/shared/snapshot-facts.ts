/** Lookup and facts of one snapshot, shared by the snapshot commands. */
import type { CommandContext, StateValue } from "../../src/core/define-command.js";
import { formatWhen } from "../../src/core/format-time.js";
import { type Field, rich } from "../../src/core/message.js";
import { formatDuration } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import type { Snapshot } from "../../src/flashblade/types.js";

export async function requireSnapshot(ctx: CommandContext, name: string): Promise<Snapshot> {
  const snap = await ctx.array.snapshots.get(name);
  if (!snap) {
    throw new UserFacingError(
      "NOT_FOUND",
      `There is no snapshot named "${name}" on array ${ctx.arrayName}. Snapshot names look like <file system>.<suffix>; list them with /array snapshot list --fs <file system>.`,
    );
  }
  return snap;
}

export function snapshotFacts(s: Snapshot, now: number, timeZone: string): Field[] {
  const facts: Field[] = [
    { label: "File system", value: rich`${s.source ?? s.owner?.name ?? "?"}` },
    {
      label: "Created",
      value: rich`${s.created === undefined ? "–" : formatWhen(s.created, now, timeZone)}`,
    },
  ];
  if (s.policy?.name) facts.push({ label: "Made by policy", value: rich`${s.policy.name}` });
  if (s.destroyed && s.time_remaining !== undefined) {
    facts.push({ label: "Eradicated automatically in", value: rich`${formatDuration(s.time_remaining)}` });
  }
  return facts;
}

export function snapshotState(s: Snapshot): Record<string, StateValue> {
  return {
    exists: true,
    destroyed: s.destroyed ?? false,
    source: s.source ?? null,
    created: s.created ?? null,
  };
}
