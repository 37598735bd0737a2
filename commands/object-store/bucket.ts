/**
 * `bucket list|create|destroy|recover|eradicate`: buckets in object store accounts. Destroying and eradicating
 * are gated like file systems (classes destroy and eradicate); their impacts count the objects and bytes, and
 * name the replica links that stop. Create sends the account under the version's parameter name (wire.ts).
 */
import { z } from "zod";
import { flag, objectName } from "../../src/core/arg-types.js";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/define-command.js";
import { type Field, message, rich } from "../../src/core/message.js";
import { truncatedTable } from "../../src/core/table.js";
import { countOf, formatBytes, formatCount } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { bucketCreate } from "../../src/flashblade/wire.js";
import { bucketLinksOf } from "../replication/bucket-link-facts.js";
import { eradicationNote, recoverOffer, refuseAlreadyDestroyed } from "../shared/destroyed.js";
import { done } from "../shared/done.js";
import { notFoundError } from "../shared/found.js";
import { arraysCovered, listingMessage } from "../shared/listing.js";
import { itemsOf, onlyItem, planned } from "../shared/plan.js";

export const PATH = "/buckets";
export const bucketRowSchema = z.looseObject({
  name: z.string(),
  destroyed: z.boolean().nullish(),
  time_remaining: z.number().nullish(),
  object_count: z.number().nullish(),
  versioning: z.string().nullish(),
  account: z.looseObject({ name: z.string().nullish() }).nullish(),
  space: z.looseObject({ virtual: z.number().nullish() }).nullish(),
});
type Bucket = z.output<typeof bucketRowSchema>;

export const nameArgs = z.object({ name: objectName("bucket name").describe("the bucket") });
const used = (b: Bucket) => b.space?.virtual ?? 0;

export async function bucketsOf(ctx: CommandContext, filter?: string): Promise<Bucket[]> {
  const out: Bucket[] = [];
  const query = filter === undefined ? {} : { filter };
  for await (const b of ctx.array.iterate(PATH, { query, schema: bucketRowSchema })) out.push(b);
  return out;
}

export async function requireBucket(ctx: CommandContext, name: string): Promise<Bucket> {
  const found = (await bucketsOf(ctx, eq("name", name))).find((b) => b.name === name);
  if (found) return found;
  throw await notFoundError(
    ctx,
    PATH,
    name,
    `There is no bucket ${name} on ${ctx.arrayName}. List them with \`/array bucket list --array ${ctx.arrayName}\`.`,
  );
}

async function bucketImpact(ctx: CommandContext, b: Bucket): Promise<{ facts: Field[]; links: string[] }> {
  const links = (await ctx.array.supports("1.9"))
    ? (await bucketLinksOf(ctx, b.name)).map(
        (l) => `${l.direction === "inbound" ? "from" : "to"} ${l.remote?.name ?? "?"}`,
      )
    : [];
  return {
    facts: [
      { label: "Account", value: rich`${b.account?.name ?? "?"}` },
      { label: "Objects", value: rich`${formatCount(b.object_count ?? 0)}` },
      { label: "Used", value: rich`${formatBytes(used(b))}` },
      { label: "Replica links", value: rich`${links.join(", ") || "none"}` },
    ],
    links,
  };
}

export const bucketList = defineCommand({
  verb: "list",
  summary: "Buckets with their account, size, object count and versioning",
  examples: ["bucket list", "bucket list --account backup", "bucket list --destroyed --array all"],
  role: "viewer",
  args: z.object({
    account: objectName("account name").optional().describe("only this account's buckets"),
    destroyed: flag().optional().describe("include destroyed buckets"),
  }),
  async run(a, ctx) {
    const rows = (await bucketsOf(ctx)).filter(
      (b) => (a.destroyed || !b.destroyed) && (a.account === undefined || b.account?.name === a.account),
    );
    return rows.map((b) => ({ array: ctx.arrayName, b }));
  },
  merge: (results) => results.flatMap((r) => r.result),
  render(rows, a, rctx) {
    const { many, where } = arraysCovered(rctx);
    if (rows.length === 0) {
      const text = `No buckets${a.account ? ` in account ${a.account}` : ""} on ${where}.`;
      return message(text, [{ type: "section", text: rich`${text}` }]);
    }
    const sorted = [...rows].sort((x, y) => used(y.b) - used(x.b));
    const headline = `${countOf(rows.length, "bucket")}${a.account ? ` in ${a.account}` : ""} on ${where}`;
    const table = truncatedTable(
      [
        ...(many ? [{ key: "array", label: "Array" }] : []),
        { key: "name", label: "Bucket" },
        { key: "account", label: "Account" },
        { key: "used", label: "Used", align: "right" as const },
        { key: "objects", label: "Objects", align: "right" as const },
        { key: "versioning", label: "Versioning" },
      ],
      sorted.map(({ array, b }) => ({
        array,
        name: `${b.name}${b.destroyed ? " (destroyed)" : ""}`,
        account: b.account?.name ?? "?",
        used: formatBytes(used(b)),
        objects: formatCount(b.object_count ?? 0),
        versioning: b.versioning ?? "–",
      })),
      { filename: "buckets.csv", title: headline },
    );
    return listingMessage(headline, table);
  },
});

export const bucketCreateCommand = defineCommand({
  verb: "create",
  summary: "Create a bucket in an object store account, versioned from the start if asked (REST 1.9+)",
  examples: [
    "bucket create media-assets --account analytics",
    "bucket create media-assets --account analytics --versioning enabled",
  ],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({
    name: objectName("bucket name", "bucket").describe("the bucket"),
    account: objectName("account name").describe("the account that owns it"),
    versioning: z
      .enum(["enabled", "suspended"])
      .optional()
      .describe("enabled (needed to replicate it) or suspended; set right after creating it"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const existing = (await bucketsOf(ctx, eq("name", a.name))).find((b) => b.name === a.name);
    if (existing) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `Bucket ${a.name} already exists on ${ctx.arrayName}${existing.destroyed ? " (destroyed: recover or eradicate it first)" : ""}. Nothing was changed.`,
      );
    }
    // BucketPost carries only the account: versioning is a PATCH of the new bucket (BucketPatch, 1.9+).
    if (a.versioning !== undefined && !(await ctx.array.supports("1.9"))) {
      throw new UserFacingError(
        "NOT_SUPPORTED",
        `Versioning needs REST 1.9 or newer; ${ctx.arrayName} speaks ${await ctx.array.version()}. Create the bucket without --versioning. Nothing was changed.`,
      );
    }
    const { query, body } = bucketCreate(await ctx.array.version(), a.name, a.account);
    const versioned = a.versioning === undefined ? "" : `, with versioning ${a.versioning}`;
    return {
      target: `bucket ${a.name}`,
      summary: rich`Creates bucket *${a.name}* in account ${a.account} on ${ctx.arrayName}${versioned}.`,
      facts: [],
      warnings: [],
      state: { exists: false },
      requests: [
        planned("POST", PATH, query, body),
        ...(a.versioning === undefined
          ? []
          : [planned("PATCH", PATH, { names: [a.name] }, { versioning: a.versioning })]),
      ],
    };
  },
  result(responses, _a, ctx, _impact) {
    return onlyItem(ctx, PATH, itemsOf(ctx, responses, bucketRowSchema));
  },
  render: (b, a, rctx) => {
    const versioned = b.versioning && b.versioning !== "none" ? `, versioning ${b.versioning}` : "";
    const text = `Created bucket ${b.name} in account ${a.account} on ${rctx.arrays[0] ?? "?"}${versioned}.`;
    return done(text);
  },
});

export const bucketDestroy = defineCommand({
  verb: "destroy",
  summary: "Destroy a bucket (S3 requests to it fail; recoverable until eradicated)",
  examples: ["bucket destroy analytics-raw", "bucket destroy analytics-raw --dry-run"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const b = await requireBucket(ctx, a.name);
    refuseAlreadyDestroyed(b, a.name, "bucket");
    const { facts, links } = await bucketImpact(ctx, b);
    return {
      target: `bucket ${a.name}`,
      summary: rich`Destroys bucket *${a.name}* on ${ctx.arrayName}: S3 requests to it fail at once. It can be recovered until the array eradicates it.`,
      facts,
      warnings: links.length ? [rich`Its replica links (${links.join(", ")}) stop replicating.`] : [],
      state: { destroyed: false, objects: b.object_count ?? 0, links: links.length },
      requests: [planned("PATCH", PATH, { names: [a.name] }, { destroyed: true })],
    };
  },
  destructive: () => "destroy",
  gateClasses: ["destroy"],
  result(responses, a, ctx, _impact) {
    const [b] = itemsOf(ctx, responses, bucketRowSchema);
    return { name: a.name, time_remaining: b?.time_remaining ?? undefined };
  },
  followUp: (b) => recoverOffer("bucket.recover", b),
  render: (b, _a, rctx) =>
    done(
      `Destroyed bucket ${b.name} on ${rctx.arrays[0] ?? "?"}.${eradicationNote(b)} It can be recovered until then.`,
    ),
});

export const bucketRecover = defineCommand({
  verb: "recover",
  summary: "Recover a destroyed bucket",
  examples: ["bucket recover tmp-export"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const b = await requireBucket(ctx, a.name);
    if (!b.destroyed)
      throw new UserFacingError("NOT_DESTROYED", `${a.name} is not destroyed. Nothing was changed.`);
    return {
      target: `bucket ${a.name}`,
      summary: rich`Recovers bucket *${a.name}* on ${ctx.arrayName}; S3 requests to it work again.`,
      facts: [],
      warnings: [],
      state: { destroyed: true },
      requests: [planned("PATCH", PATH, { names: [a.name] }, { destroyed: false })],
    };
  },
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, _a, rctx) => done(`Recovered bucket ${name} on ${rctx.arrays[0] ?? "?"}.`),
});

export const bucketEradicate = defineCommand({
  verb: "eradicate",
  summary: "Eradicate a destroyed bucket and its objects for good; needs approval",
  examples: ["bucket eradicate tmp-export"],
  // The access policy's role for DELETE /buckets, as for fs and snapshot eradicate; the generic `bucket delete`
  // sent the same DELETE as an operator without the destroyed-first check.
  role: "admin",
  replaces: ["bucket.delete"],
  visibility: "in_channel",
  positional: ["name"],
  args: nameArgs,
  async impact(a, ctx): Promise<Impact> {
    const b = await requireBucket(ctx, a.name);
    if (!b.destroyed) {
      throw new UserFacingError(
        "NOT_DESTROYED",
        `${a.name} is not destroyed; destroy it first with /array bucket destroy ${a.name}. Nothing was changed.`,
      );
    }
    const { facts } = await bucketImpact(ctx, b);
    return {
      target: `bucket ${a.name}`,
      summary: rich`Eradicates bucket *${a.name}* on ${ctx.arrayName}: its ${formatCount(b.object_count ?? 0)} objects (${formatBytes(used(b))}) are gone for good.`,
      facts,
      warnings: [rich`This cannot be undone.`],
      state: { destroyed: true, objects: b.object_count ?? 0 },
      requests: [planned("DELETE", PATH, { names: [a.name] })],
      typeToConfirm: a.name,
    };
  },
  destructive: () => "eradicate",
  gateClasses: ["eradicate"],
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, _a, rctx) => done(`Eradicated bucket ${name} on ${rctx.arrays[0] ?? "?"}.`),
});
