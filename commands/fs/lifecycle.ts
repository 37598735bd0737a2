/** Destroy (recoverable), recover, eradicate (permanent) of a file system. */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { countOf, formatBytes } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import {
  eradicationNote,
  recoverOffer,
  refuseAlreadyDestroyed,
  refuseNotDestroyed,
  requireDestroyedToEradicate,
} from "../shared/destroyed.js";
import { done } from "../shared/done.js";
import {
  fileSystemAndSurroundings,
  fingerprintState,
  impactFacts,
  protocolsOf,
  usedBytes,
} from "../shared/file-system-facts.js";
import { itemsOf, onlyItem } from "../shared/plan.js";

const nameArgs = z.object({ name: objectName("file system name").describe("the file system") });

export const fsDestroy = defineCommand({
  verb: "destroy",
  summary: "Destroy a file system (it stops serving clients; recoverable until eradicated)",
  examples: ["fs destroy scratch", "fs destroy scratch --dry-run"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const { fs, around } = await fileSystemAndSurroundings(ctx, a.name);
    refuseAlreadyDestroyed(fs, a.name, "fs");
    const warnings = [];
    if (around.links.length > 0)
      warnings.push(rich`${a.name} has ${countOf(around.links.length, "replica link")}; replication stops.`);
    // Arrays refuse to destroy a file system that still serves a protocol, so the request turns them off.
    const serving = protocolsOf(fs);
    if (serving.length > 0)
      warnings.push(
        rich`${a.name} still serves ${serving.join(", ")}; the destroy turns ${serving.length === 1 ? "it" : "them"} off, and a recovered file system comes back with ${serving.length === 1 ? "it" : "them"} off.`,
      );
    return {
      target: `file system ${a.name}`,
      summary: rich`Destroys *${a.name}* on ${ctx.arrayName}: it stops serving clients at once. It can be recovered until the array eradicates it.`,
      facts: impactFacts(fs, around),
      warnings,
      state: fingerprintState(fs, around),
      // A file system with a replica link is destroyed only when asked to delete the link on eradication.
      requests: [
        await ctx.array.fileSystems.planDestroy(a.name, { deleteLinkOnEradication: around.links.length > 0 }),
      ],
    };
  },
  destructive: () => "destroy",
  gateClasses: ["destroy"],
  result(responses, _a, ctx, _impact) {
    return onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema));
  },
  followUp: (fs) => recoverOffer("fs.recover", fs),
  render(fs, _a, rctx) {
    const left = eradicationNote(fs);
    return done(
      `Destroyed ${fs.name} on ${rctx.arrays[0] ?? "?"}.${left}`,
      rich`Destroyed *${fs.name}* on ${rctx.arrays[0] ?? "?"}.${left} It can be recovered until then.`,
    );
  },
});

export const fsRecover = defineCommand({
  verb: "recover",
  summary: "Recover a destroyed file system",
  examples: ["fs recover old-share"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const fs = await ctx.array.fileSystems.get(a.name);
    if (!fs) {
      throw new UserFacingError(
        "NOT_FOUND",
        `There is no file system named "${a.name}" on ${ctx.arrayName} any more; if it was eradicated it cannot be recovered.`,
      );
    }
    refuseNotDestroyed(fs, a.name);
    return {
      target: `file system ${a.name}`,
      summary: protocolsOf(fs).length
        ? rich`Recovers *${a.name}* on ${ctx.arrayName} (${formatBytes(usedBytes(fs))} used); it serves clients again over ${protocolsOf(fs).join(", ")}.`
        : rich`Recovers *${a.name}* on ${ctx.arrayName} (${formatBytes(usedBytes(fs))} used); destroying turned its protocols off, so it serves no clients until you turn them on again.`,
      facts: [],
      warnings: [],
      state: fingerprintState(fs),
      requests: [await ctx.array.fileSystems.planUpdate(a.name, { destroyed: false })],
    };
  },
  result(responses, _a, ctx, _impact) {
    return onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema));
  },
  render(fs, _a, rctx) {
    return done(
      `Recovered ${fs.name} on ${rctx.arrays[0] ?? "?"}.`,
      protocolsOf(fs).length
        ? rich`Recovered *${fs.name}* on ${rctx.arrays[0] ?? "?"}; it is serving clients again over ${protocolsOf(fs).join(", ")}.`
        : rich`Recovered *${fs.name}* on ${rctx.arrays[0] ?? "?"}; its protocols are off, so it serves no clients until you turn them on (for example /array fs update ${fs.name} --nfs).`,
    );
  },
});

export const fsEradicate = defineCommand({
  verb: "eradicate",
  summary: "Eradicate a destroyed file system: permanent, needs approval",
  examples: ["fs eradicate old-share"],
  role: "admin",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const { fs, around } = await fileSystemAndSurroundings(ctx, a.name);
    requireDestroyedToEradicate(
      fs,
      a.name,
      ctx.recheck,
      `${a.name} is not destroyed. Destroy it first with /array fs destroy ${a.name}; it can be eradicated afterwards.`,
    );
    return {
      target: `file system ${a.name}`,
      summary: rich`Eradicates *${a.name}* on ${ctx.arrayName}. This is permanent: it cannot be recovered afterwards.`,
      facts: impactFacts(fs, around),
      warnings: [
        rich`Permanent: ${formatBytes(usedBytes(fs))} of data in ${a.name}${around.snapshots > 0 ? ` and its ${countOf(around.snapshots, "snapshot")}` : ""} will be lost for good.`,
      ],
      state: fingerprintState(fs, around),
      requests: [await ctx.array.fileSystems.planEradicate(a.name)],
      typeToConfirm: a.name,
    };
  },
  destructive: () => "eradicate",
  gateClasses: ["eradicate"],
  result(_responses, a, _ctx, _impact) {
    return { name: a.name };
  },
  render({ name }, _a, rctx) {
    return done(
      `Eradicated ${name} on ${rctx.arrays[0] ?? "?"}.`,
      rich`Eradicated *${name}* on ${rctx.arrays[0] ?? "?"}. It is gone for good.`,
    );
  },
});
