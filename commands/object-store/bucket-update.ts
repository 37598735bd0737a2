/** `bucket update --versioning`: turning object versioning on or suspending it (REST 1.9+). */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { UserFacingError } from "../../src/errors.js";
import { versionTooOld } from "../../src/flashblade/errors.js";
import { done } from "../shared/done.js";
import { planned } from "../shared/plan.js";
import { nameArgs, PATH, requireBucket } from "./bucket.js";

export const bucketUpdate = defineCommand({
  verb: "update",
  summary: "Turn a bucket's object versioning on or suspend it (REST 1.9+)",
  examples: [
    "bucket update veeam-repo --versioning enabled",
    "bucket update analytics-raw --versioning suspended",
  ],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs.extend({
    versioning: z
      .enum(["enabled", "suspended"])
      .describe("enabled, or suspended (a bucket never returns to none)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    if (!(await ctx.array.supports("1.9"))) {
      throw versionTooOld(ctx.arrayName, await ctx.array.version(), "1.9", "Changing versioning");
    }
    const b = await requireBucket(ctx, a.name);
    if (b.destroyed) throw new UserFacingError("DESTROYED", `${a.name} is destroyed; recover it first.`);
    if (b.versioning === a.versioning) {
      throw new UserFacingError(
        "NO_CHANGE",
        `Versioning of ${a.name} is already ${a.versioning}. Nothing was changed.`,
      );
    }
    return {
      target: `bucket ${a.name}`,
      summary: rich`Sets versioning of *${a.name}* to ${a.versioning} (was ${b.versioning ?? "?"}).`,
      facts: [],
      warnings:
        a.versioning === "suspended"
          ? [rich`Overwritten and deleted objects are no longer kept as previous versions.`]
          : [
              rich`Previous versions now count against the bucket's space; a lifecycle rule limits how long they stay.`,
            ],
      state: { versioning: b.versioning ?? null },
      requests: [planned("PATCH", PATH, { names: [a.name] }, { versioning: a.versioning })],
    };
  },
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, a, rctx) =>
    done(`Versioning of bucket ${name} on ${rctx.arrays[0] ?? "?"} is now ${a.versioning}.`),
});
