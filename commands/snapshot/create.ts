/**
 * `snapshot create <fs> [--suffix s]`: hand-written, not catalogue data, because the POST selects the file system
 * by `sources` and the suffix goes in the body, a destroyed file system is refused, and an existing
 * `<fs>.<suffix>` is refused before anything is sent.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { UserFacingError } from "../../src/errors.js";
import { snapshotSchema } from "../../src/flashblade/schemas.js";
import { snapshotCreate } from "../../src/flashblade/wire.js";
import { done } from "../shared/done.js";
import { requireFileSystem } from "../shared/file-system-facts.js";
import { itemsOf, planned } from "../shared/plan.js";

export const snapshotCreateCommand = defineCommand({
  verb: "create",
  summary: "Take a snapshot of a file system",
  examples: ["snapshot create home", "snapshot create home --suffix before-patch"],
  role: "operator",
  endpoints: ["POST /file-system-snapshots"],
  visibility: "in_channel",
  positional: ["fs"],
  args: z.object({
    fs: objectName("file system name").describe("the file system to snapshot"),
    suffix: objectName("suffix")
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "a suffix uses letters, digits, '_' and '-'")
      .optional()
      .describe("snapshot suffix (the array picks one when absent)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const fs = await requireFileSystem(ctx, a.fs);
    if (fs.destroyed)
      throw new UserFacingError("FS_DESTROYED", `${a.fs} is destroyed; recover it before taking snapshots.`);
    if (a.suffix !== undefined && (await ctx.array.snapshots.get(`${a.fs}.${a.suffix}`))) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `Snapshot ${a.fs}.${a.suffix} already exists; pick another --suffix.`,
      );
    }
    const { query, body } = snapshotCreate([a.fs], a.suffix);
    return {
      target: `a snapshot of ${a.fs}`,
      summary: rich`Takes a snapshot of *${a.fs}* on ${ctx.arrayName}${a.suffix ? rich` named ${a.fs}.${a.suffix}` : ""}.`,
      facts: [],
      warnings: [],
      state: { exists: true },
      requests: [planned("POST", "/file-system-snapshots", query, body)],
    };
  },
  result: (responses, _a, ctx) => itemsOf(ctx, responses, snapshotSchema),
  render(snaps, _a, rctx) {
    const names = snaps.map((s) => s.name).join(", ");
    const on = rctx.arrays[0] ?? "?";
    return done(`Created snapshot ${names} on ${on}.`, rich`Created snapshot *${names}* on ${on}.`);
  },
});
