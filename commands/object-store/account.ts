/**
 * `account list`: object store accounts with their buckets, users and space. Hand-written because the list adds
 * up each account's buckets, users and space, which no one GET answers. Create and delete are the catalogue's
 * (catalogue/object-store.ts); their precondition read lives here, beside the facts it shares with the list.
 */
import { z } from "zod";
import { type CommandContext, defineCommand } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import type { Precheck } from "../catalogue/spec.js";
import { rowsListing } from "../shared/listing.js";
import { bucketsOf } from "./bucket.js";
import { usersOf } from "./user.js";

const PATH = "/object-store-accounts";
const accountSchema = z.looseObject({ name: z.string() });

async function accountFacts(ctx: CommandContext, account: string) {
  const buckets = (await bucketsOf(ctx)).filter((b) => b.account?.name === account);
  const users = (await usersOf(ctx)).filter((u) => u.name.startsWith(`${account}/`));
  const keys = users.reduce((n, u) => n + (u.access_keys?.length ?? 0), 0);
  return { buckets, users, keys };
}

export const accountList = defineCommand({
  verb: "list",
  summary: "Object store accounts with their buckets, users and space",
  examples: ["object-account list", "object-account list --array all"],
  role: "viewer",
  endpoints: ["GET /buckets", "GET /object-store-accounts", "GET /object-store-users"],
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
        values: rows,
      },
    ),
});

/**
 * Before a delete: the array refuses while the account still has buckets, and so do we, naming them; deleting it
 * deletes its users and their access keys with it, so the impact counts them.
 */
export const accountDeleteCheck: Precheck = async (ctx, { name }) => {
  const f = await accountFacts(ctx, name);
  if (f.buckets.length > 0) {
    const names = f.buckets.map((b) => `${b.name}${b.destroyed ? " (destroyed)" : ""}`);
    throw new UserFacingError(
      "IN_USE",
      `Account ${name} still holds ${countOf(f.buckets.length, "bucket")} (${names.join(", ")}); destroy and eradicate them first. Nothing was changed.`,
    );
  }
  return {
    summary: rich`Deletes object store account *${name}* on ${ctx.arrayName}, with ${countOf(f.users.length, "user")} and ${countOf(f.keys, "access key")}.`,
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
};
