/**
 * `bucket list|create` and the bucket's lifecycle trait: hand-written because the list filters by account and
 * destroyed and sorts by space, and create sets versioning in a second request on arrays that take it; destroy,
 * recover and eradicate are the trait's, whose facts count the objects and bytes and name the replica links that
 * stop. Create sends the account under the version's parameter name (wire.ts).
 */

import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { type Field, message, rich } from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import { flag, objectName } from "../../src/core/words/arg-types.js";
import { countOf, formatBytes, formatCount } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { bucketCreate } from "../../src/flashblade/wire.js";
import type { Lifecycle } from "../catalogue/spec.js";
import { bucketLinksOf } from "../replication/bucket-link-facts.js";
import { done } from "../shared/done.js";
import { notFoundError } from "../shared/found.js";
import { arraysCovered, listingMessage } from "../shared/listing.js";
import { itemsOf, onlyItem, planned } from "../shared/plan.js";
import { isoTime } from "../shared/shown.js";

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

/**
 * The lifecycle trait of buckets (destroy, recover, eradicate come from catalogue/generic/lifecycle.ts, through
 * the bucket's catalogue entry): the facts are the account, objects, space and the replica links that stop.
 */
export const BUCKET_LIFECYCLE: Lifecycle = {
  summaries: {
    destroy: "Destroy a bucket (S3 requests to it fail; recoverable until eradicated)",
    recover: "Recover a destroyed bucket",
    eradicate: "Eradicate a destroyed bucket and its objects for good; needs approval",
  },
  examples: {
    destroy: ["analytics-raw", "analytics-raw --dry-run"],
    recover: ["tmp-export"],
    eradicate: ["tmp-export"],
  },
  stops: "S3 requests to it fail at once",
  async view(ctx, item) {
    const b = bucketRowSchema.parse(item);
    const { facts, links } = await bucketImpact(ctx, b);
    return {
      facts,
      state: { destroyed: b.destroyed ?? false, objects: b.object_count ?? 0, links: links.length },
      warnings: links.length ? [rich`Its replica links (${links.join(", ")}) stop replicating.`] : [],
      lost: `${formatCount(b.object_count ?? 0)} objects (${formatBytes(used(b))}) in ${b.name} will be lost for good.`,
    };
  },
  recovers: () => ({ impact: "; S3 requests to it work again", done: "" }),
};

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
  endpoints: ["GET /buckets"],
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
      {
        limit: rctx.tableRows,
        filename: "buckets.csv",
        title: headline,
        values: sorted.map(({ array, b }) => ({
          array,
          name: b.name,
          destroyed: b.destroyed ?? false,
          account: b.account?.name ?? null,
          used: used(b),
          objects: b.object_count ?? 0,
          versioning: b.versioning ?? null,
          created: isoTime(typeof b.created === "number" ? b.created : undefined),
        })),
      },
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
  endpoints: ["POST /buckets", "PATCH /buckets {versioning: on create}"],
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
    // The account is checked before the card: an unknown one is named here, not in the array's 400 after Confirm.
    const accounts = await ctx.array.get("/object-store-accounts", {
      query: { filter: eq("name", a.account) },
      schema: z.looseObject({ name: z.string() }),
    });
    if (!accounts.items.some((x) => x.name === a.account))
      throw await notFoundError(
        ctx,
        "/object-store-accounts",
        a.account,
        `There is no object store account named "${a.account}" on ${ctx.arrayName}. Nothing was changed.`,
      );
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
