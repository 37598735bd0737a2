/** Destroy (recoverable), recover and eradicate (permanent) of a snapshot. */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { UserFacingError } from "../../src/errors.js";
import { snapshotSchema } from "../../src/flashblade/schemas.js";
import {
  eradicationNote,
  recoverOffer,
  refuseNotDestroyed,
  requireDestroyedToEradicate,
} from "../shared/destroyed.js";
import { done } from "../shared/done.js";
import { itemsOf, onlyItem } from "../shared/plan.js";
import { requireSnapshot, snapshotFacts, snapshotState } from "../shared/snapshot-facts.js";

const PATH = "/file-system-snapshots";
const nameArgs = z.object({
  name: objectName("snapshot name").describe("the snapshot, <file system>.<suffix>"),
});

export const snapshotDestroy = defineCommand({
  verb: "destroy",
  summary: "Destroy a snapshot (recoverable until eradicated)",
  examples: ["snapshot destroy home.daily.1"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const s = await requireSnapshot(ctx, a.name);
    if (s.destroyed) throw new UserFacingError("ALREADY_DESTROYED", `${a.name} is already destroyed.`);
    return {
      target: `snapshot ${a.name}`,
      summary: rich`Destroys snapshot *${a.name}* on ${ctx.arrayName}. It can be recovered until the array eradicates it.`,
      facts: snapshotFacts(s, ctx.now(), ctx.timeZone),
      warnings: [],
      state: snapshotState(s),
      requests: [await ctx.array.snapshots.planDestroy(a.name)],
    };
  },
  destructive: () => "destroy",
  gateClasses: ["destroy"],
  result(responses, _a, ctx, _impact) {
    return onlyItem(ctx, PATH, itemsOf(ctx, responses, snapshotSchema));
  },
  followUp: (s) => recoverOffer("snapshot.recover", s),
  render(s, _a, rctx) {
    const left = eradicationNote(s);
    return done(
      `Destroyed snapshot ${s.name} on ${rctx.arrays[0] ?? "?"}.${left}`,
      rich`Destroyed snapshot *${s.name}* on ${rctx.arrays[0] ?? "?"}.${left}`,
    );
  },
});

export const snapshotRecover = defineCommand({
  verb: "recover",
  summary: "Recover a destroyed snapshot",
  examples: ["snapshot recover projects.q3-close"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const s = await ctx.array.snapshots.get(a.name);
    if (!s)
      throw new UserFacingError(
        "NOT_FOUND",
        `There is no snapshot named "${a.name}" on ${ctx.arrayName} any more.`,
      );
    refuseNotDestroyed(s, a.name);
    return {
      target: `snapshot ${a.name}`,
      summary: rich`Recovers snapshot *${a.name}* on ${ctx.arrayName}.`,
      facts: [],
      warnings: [],
      state: snapshotState(s),
      requests: [await ctx.array.snapshots.planRecover(a.name)],
    };
  },
  result(responses, _a, ctx, _impact) {
    return onlyItem(ctx, PATH, itemsOf(ctx, responses, snapshotSchema));
  },
  render(s, _a, rctx) {
    return done(
      `Recovered snapshot ${s.name} on ${rctx.arrays[0] ?? "?"}.`,
      rich`Recovered snapshot *${s.name}* on ${rctx.arrays[0] ?? "?"}.`,
    );
  },
});

export const snapshotEradicate = defineCommand({
  verb: "eradicate",
  summary: "Eradicate a destroyed snapshot: permanent, needs approval",
  examples: ["snapshot eradicate projects.q3-close"],
  role: "admin",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const s = await requireSnapshot(ctx, a.name);
    requireDestroyedToEradicate(
      s,
      a.name,
      ctx.recheck,
      `${a.name} is not destroyed. Destroy it first with /array snapshot destroy ${a.name}.`,
    );
    return {
      target: `snapshot ${a.name}`,
      summary: rich`Eradicates snapshot *${a.name}* on ${ctx.arrayName}. This is permanent.`,
      facts: snapshotFacts(s, ctx.now(), ctx.timeZone),
      warnings: [rich`Permanent: the point-in-time copy ${a.name} cannot be recovered afterwards.`],
      state: snapshotState(s),
      requests: [await ctx.array.snapshots.planEradicate(a.name)],
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
      `Eradicated snapshot ${name} on ${rctx.arrays[0] ?? "?"}.`,
      rich`Eradicated snapshot *${name}* on ${rctx.arrays[0] ?? "?"}. It is gone for good.`,
    );
  },
});
