/**
 * `account list|create|delete`: object store accounts. Deleting one deletes its users and their access keys
 * with it, so the impact counts them; the array refuses while the account still has buckets, and so do we,
 * naming them, before anything is sent. Not catalogue data: the list adds up each account's buckets, users and
 * space, and delete reads those first (refusing, counting, warning), which the generic verbs cannot.
 */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { type CommandContext, defineCommand } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { countOf, formatBytes } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { rowsListing } from "../shared/listing.js";
import { namedChange } from "../shared/named-change.js";
import { bucketsOf } from "./bucket.js";

const PATH = "/object-store-accounts";
const accountSchema = z.looseObject({ name: z.string() });
const userSchema = z.looseObject({
  name: z.string(),
  access_keys: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
});

async function accountFacts(ctx: CommandContext, account: string) {
  const buckets = (await bucketsOf(ctx)).filter((b) => b.account?.name === account);
  const users: z.output<typeof userSchema>[] = [];
  for await (const u of ctx.array.iterate("/object-store-users", { schema: userSchema }))
    if (u.name.startsWith(`${account}/`)) users.push(u);
  const keys = users.reduce((n, u) => n + (u.access_keys?.length ?? 0), 0);
  return { buckets, users, keys };
}

export const accountList = defineCommand({
  verb: "list",
  summary: "Object store accounts with their buckets, users and space",
  examples: ["object-account list", "object-account list --array all"],
  role: "viewer",
  args: z.object({}),
  async run(_a, ctx) {
    const out = [];
    for await (const a of ctx.array.iterate(PATH, { schema: accountSchema })) {
      const f = await accountFacts(ctx, a.name);
      const live = f.buckets.filter((b) => !b.destroyed);
      out.push({
        array: ctx.arrayName,
        name: a.name,
        buckets: live.length,
        users: f.users.length,
        used: live.reduce((n, b) => n + (b.space?.virtual ?? 0), 0),
      });
    }
    return out;
  },
  merge: (results) => results.flatMap((r) => r.result),
  render: (rows, _a, rctx) =>
    rowsListing(
      rctx,
      rows.map((r) => ({
        ...r,
        buckets: String(r.buckets),
        users: String(r.users),
        used: formatBytes(r.used),
      })),
      {
        empty: (where) => `No object store accounts on ${where}.`,
        headline: (where) => `${countOf(rows.length, "object store account")} on ${where}`,
        columns: [
          { key: "name", label: "Account" },
          { key: "buckets", label: "Buckets", align: "right" },
          { key: "users", label: "Users", align: "right" },
          { key: "used", label: "Used", align: "right" },
        ],
        filename: "object-store-accounts.csv",
      },
    ),
});

export const accountCreate = namedChange({
  verb: "create",
  summary: "Create an object store account",
  examples: ["object-account create media"],
  role: "operator",
  args: z.object({ name: objectName("account name", "account").describe("the account") }),
  key: "name",
  method: "POST",
  path: PATH,
  what: "object store account",
  plan: async (a, ctx) => ({ summary: rich`Creates object store account *${a.name}* on ${ctx.arrayName}.` }),
  answer: (name, array) =>
    `Created object store account ${name} on ${array}. Add buckets with /array bucket create <name> --account ${name}.`,
});

export const accountDelete = namedChange({
  verb: "delete",
  summary:
    "Delete an object store account with its users and their access keys (it must hold no buckets); gated",
  examples: ["object-account delete archive"],
  role: "operator",
  args: z.object({ name: objectName("account name").describe("the account") }),
  key: "name",
  method: "DELETE",
  path: PATH,
  what: "object store account",
  async plan(a, ctx) {
    const page = await ctx.array
      .get(PATH, { query: { names: [a.name] }, schema: accountSchema })
      .catch(() => undefined);
    if (!page?.items.some((x) => x.name === a.name)) {
      throw new UserFacingError(
        "NOT_FOUND",
        `There is no object store account ${a.name} on ${ctx.arrayName}.`,
      );
    }
    const f = await accountFacts(ctx, a.name);
    if (f.buckets.length > 0) {
      const names = f.buckets.map((b) => `${b.name}${b.destroyed ? " (destroyed)" : ""}`);
      throw new UserFacingError(
        "IN_USE",
        `Account ${a.name} still holds ${countOf(f.buckets.length, "bucket")} (${names.join(", ")}); destroy and eradicate them first. Nothing was changed.`,
      );
    }
    return {
      summary: rich`Deletes object store account *${a.name}* on ${ctx.arrayName}, with ${countOf(f.users.length, "user")} and ${countOf(f.keys, "access key")}.`,
      facts: [
        { label: "Buckets", value: rich`none` },
        { label: "Users", value: rich`${f.users.map((u) => u.name).join(", ") || "none"}` },
        { label: "Access keys", value: rich`${String(f.keys)}` },
      ],
      warnings: f.keys
        ? [rich`Applications signing with those ${countOf(f.keys, "key")} lose access for good.`]
        : [],
      state: { buckets: 0, users: f.users.length, keys: f.keys },
    };
  },
  cls: "delete",
  answer: (name, array) => `Deleted object store account ${name} on ${array}.`,
});
