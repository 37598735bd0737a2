/**
 * `target create|update|delete` (REST 1.9+): S3 targets bucket replica links can replicate to besides
 * FlashBlades. Deleting one is class delete_replication and refused while a replica link still uses it.
 * Hand-written because what people see differs from the generic verbs at every turn, and the catalogue entry
 * (catalogue/replication.ts, which keeps `list` and `show`) has no field for it: create and update require
 * --address and their cards say "Adds … at …" and "Points … at … (was …)", a missing target is "There is no S3
 * target …" rather than the array's refusal, and the answers are one sentence without the created object's fields.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { UserFacingError } from "../../src/errors.js";
import { done } from "../shared/done.js";
import { refuseNamed, requireNamed } from "../shared/found.js";
import { planned } from "../shared/plan.js";
import { bucketLinksOf } from "./bucket-link-facts.js";
import { readAll, requireReplicationApi, targetSchema } from "./read.js";

const PATH = "/targets";
type Target = z.output<typeof targetSchema>;

async function targetsOf(ctx: CommandContext): Promise<Target[]> {
  await requireReplicationApi(ctx);
  return readAll(ctx, PATH, targetSchema);
}

async function requireTarget(ctx: CommandContext, name: string): Promise<Target> {
  return requireNamed(await targetsOf(ctx), name, `There is no S3 target ${name} on ${ctx.arrayName}.`);
}

const addressArgs = z.object({
  name: objectName("target name").describe("the target"),
  address: objectName("address").describe("its IP address or host name"),
});

export const targetCreate = defineCommand({
  verb: "create",
  summary: "Add an S3 target bucket replica links can replicate to",
  examples: ["target create aws-glacier --address s3.us-east-1.amazonaws.com"],
  role: "admin",
  endpoints: ["POST /targets"],
  visibility: "in_channel",
  positional: ["name"],
  args: addressArgs,
  async impact(a, ctx): Promise<Impact> {
    refuseNamed(
      await targetsOf(ctx),
      a.name,
      `S3 target ${a.name} already exists on ${ctx.arrayName}. Nothing was changed.`,
    );
    return {
      target: `S3 target ${a.name}`,
      summary: rich`Adds S3 target *${a.name}* at ${a.address} on ${ctx.arrayName}.`,
      facts: [],
      warnings: [],
      state: {},
      requests: [planned("POST", PATH, { names: [a.name] }, { address: a.address })],
    };
  },
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, a, rctx) => done(`Added S3 target ${name} (${a.address}) on ${rctx.arrays[0] ?? "?"}.`),
});

export const targetUpdate = defineCommand({
  verb: "update",
  summary: "Point an S3 target at another address",
  examples: ["target update lab-minio --address 10.41.7.10"],
  role: "admin",
  endpoints: ["PATCH /targets"],
  visibility: "in_channel",
  positional: ["name"],
  args: addressArgs,
  async impact(a, ctx): Promise<Impact> {
    const t = await requireTarget(ctx, a.name);
    return {
      target: `S3 target ${a.name}`,
      summary: rich`Points S3 target *${a.name}* at ${a.address} (was ${t.address ?? "?"}).`,
      facts: [],
      warnings: [],
      state: { address: t.address ?? null },
      requests: [planned("PATCH", PATH, { names: [a.name] }, { address: a.address })],
    };
  },
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, a, rctx) =>
    done(`S3 target ${name} on ${rctx.arrays[0] ?? "?"} now points at ${a.address}.`),
});

export const targetDelete = defineCommand({
  verb: "delete",
  summary: "Remove an S3 target no replica link uses; gated",
  examples: ["target delete lab-minio"],
  role: "admin",
  endpoints: ["DELETE /targets"],
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({ name: objectName("target name").describe("the target") }),
  async impact(a, ctx): Promise<Impact> {
    const t = await requireTarget(ctx, a.name);
    const users = (await bucketLinksOf(ctx)).filter((l) => l.remote?.name === a.name);
    if (users.length) {
      throw new UserFacingError(
        "IN_USE",
        `Bucket replica links of ${users.map((l) => l.local_bucket?.name ?? "?").join(", ")} replicate to ${a.name}; delete them first. Nothing was changed.`,
      );
    }
    return {
      target: `S3 target ${a.name}`,
      summary: rich`Removes S3 target *${a.name}* (${t.address ?? "?"}) from ${ctx.arrayName}.`,
      facts: [{ label: "Status", value: rich`${t.status ?? "?"}` }],
      warnings: [],
      state: { address: t.address ?? null },
      requests: [planned("DELETE", PATH, { names: [a.name] })],
    };
  },
  destructive: () => "delete_replication",
  gateClasses: ["delete_replication"],
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, _a, rctx) => done(`Removed S3 target ${name} from ${rctx.arrays[0] ?? "?"}.`),
});
