/**
 * `fs resize <name> <size>`: hand-written, not catalogue data, because its class is decided from the array's
 * state: growing is a plain change, shrinking below the live usage needs approval (and ignore_usage), with the
 * overshoot said on the card.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { type Field, message, rich } from "../../src/core/presentation/message.js";
import { objectName, sizeNear } from "../../src/core/words/arg-types.js";
import { formatBytes, formatCount, nearestUnit } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { fingerprintState, requireLiveFileSystem, sizeText, usedBytes } from "../shared/file-system-facts.js";
import { itemsOf, onlyItem } from "../shared/plan.js";

const UNIT_POWER: Readonly<Record<string, number>> = { M: 20, G: 30, T: 40, P: 50 };

export const fsResize = defineCommand({
  verb: "resize",
  summary: "Change a file system's provisioned size (shrinking below its usage needs approval)",
  // Both grow what the demo has (projects is 50 TiB, scratch 5 TiB): an example run verbatim must not shrink.
  examples: ["fs resize projects 60T", "fs resize scratch 8T --dry-run"],
  role: "operator",
  endpoints: ["PATCH /file-systems {provisioned}"],
  visibility: "in_channel",
  positional: ["name", "size"],
  args: z.object({
    name: objectName("file system name").describe("the file system"),
    size: sizeNear({ min: 1 }).describe(
      "the new provisioned size, e.g. 3T (binary units: T = TiB = 2^40 bytes)",
    ),
  }),
  async impact(args, ctx): Promise<Impact> {
    const fs = await requireLiveFileSystem(ctx, args.name);
    const used = usedBytes(fs);
    const current = fs.provisioned ?? 0;
    if (typeof args.size !== "number") {
      const n = args.size.unitless;
      const unit = nearestUnit(n, current || used);
      throw new UserFacingError(
        "INVALID_ARGUMENTS",
        `\`${n}\` has no unit. ${args.name} is ${sizeText(current)} now, so you probably mean ${n}${unit} (${formatBytes(n * 2 ** (UNIT_POWER[unit] ?? 30))}): \`/array fs resize ${args.name} ${n}${unit}\`. Nothing was changed.`,
      );
    }
    const a = { name: args.name, size: args.size };
    // On a recheck the size may be the new one already; the state comparison then says what changed.
    if (a.size === current && !ctx.recheck) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `${a.name} on ${ctx.arrayName} is already ${formatBytes(current)}; nothing was sent.`,
      );
    }
    const below = a.size < used;
    const hard = fs.hard_limit_enabled ?? false;
    const request = await ctx.array.fileSystems.planUpdate(
      a.name,
      { provisioned: a.size },
      { ignoreUsage: below },
    );
    const facts: Field[] = [
      { label: "Current size", value: rich`${sizeText(current)}` },
      { label: "New size", value: rich`${formatBytes(a.size)} (${formatCount(a.size)} bytes)` },
      { label: "Used", value: rich`${formatBytes(used)}` },
      { label: "Hard limit", value: rich`${hard ? "on" : "off"}` },
    ];
    const warnings = [];
    if (below) {
      facts.push({ label: "Overshoot", value: rich`${formatBytes(used - a.size)} over the new size` });
      warnings.push(
        hard
          ? rich`${a.name} already holds ${formatBytes(used)}, ${formatBytes(used - a.size)} more than ${formatBytes(a.size)}. With the hard limit on, every write will fail until usage drops below the new size.`
          : rich`${a.name} already holds ${formatBytes(used)}, ${formatBytes(used - a.size)} more than ${formatBytes(a.size)}; it will report more than 100% full.`,
      );
    }
    // Provisioned 0 is "unlimited": any size is a limit it did not have, so going from unlimited is a shrink.
    const direction = current !== 0 && a.size > current ? "Grows" : "Shrinks";
    return {
      target: `file system ${a.name}`,
      summary: rich`${direction} *${a.name}* on ${ctx.arrayName} from ${sizeText(current)} to ${formatBytes(a.size)} (used: ${formatBytes(used)}).`,
      facts,
      warnings,
      state: { ...fingerprintState(fs), used_over_new_size: below },
      requests: [request],
    };
  },
  destructive(_a, impact) {
    return impact.state["used_over_new_size"] === true ? "shrink_below_usage" : null;
  },
  gateClasses: ["shrink_below_usage"],
  result(responses, _a, ctx, impact) {
    const before = impact?.state["provisioned_bytes"];
    const fs = onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema));
    return { fs, before: typeof before === "number" ? before : undefined };
  },
  render({ fs, before }, _a, rctx) {
    const text = `Resized ${fs.name} on ${rctx.arrays[0] ?? "?"}: ${sizeText(before)} → ${sizeText(fs.provisioned)}.`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Resized *${fs.name}* on ${rctx.arrays[0] ?? "?"}: ${sizeText(before)} → ${sizeText(fs.provisioned)}.`,
        },
      ],
      {
        visibility: "in_channel",
      },
    );
  },
});
