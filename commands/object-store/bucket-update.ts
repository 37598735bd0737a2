/**
 * `bucket update --versioning`: turning object versioning on or suspending it (REST 1.9+). Not catalogue data:
 * it refuses a destroyed bucket and an unchanged value, and warns by the value chosen, which the generic update
 * cannot.
 */
import { z } from "zod";
import { rich } from "../../src/core/message.js";
import { UserFacingError } from "../../src/errors.js";
import { versionTooOld } from "../../src/flashblade/errors.js";
import { namedChange } from "../shared/named-change.js";
import { nameArgs, PATH, requireBucket } from "./bucket.js";

export const bucketUpdate = namedChange({
  verb: "update",
  summary: "Turn a bucket's object versioning on or suspend it (REST 1.9+)",
  examples: [
    "bucket update veeam-repo --versioning enabled",
    "bucket update analytics-raw --versioning suspended",
  ],
  role: "operator",
  args: nameArgs.extend({
    versioning: z
      .enum(["enabled", "suspended"])
      .describe("enabled, or suspended (a bucket never returns to none)"),
  }),
  key: "name",
  method: "PATCH",
  path: PATH,
  what: "bucket",
  async plan(a, ctx) {
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
      summary: rich`Sets versioning of *${a.name}* to ${a.versioning} (was ${b.versioning ?? "?"}).`,
      warnings:
        a.versioning === "suspended"
          ? [rich`Overwritten and deleted objects are no longer kept as previous versions.`]
          : [
              rich`Previous versions now count against the bucket's space; a lifecycle rule limits how long they stay.`,
            ],
      state: { versioning: b.versioning ?? null },
    };
  },
  body: (a) => ({ versioning: a.versioning }),
  answer: (name, array, a) => `Versioning of bucket ${name} on ${array} is now ${a.versioning}.`,
});
