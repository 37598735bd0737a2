/**
 * `object-user list|create|delete`: object store users (`account/user`). Deleting one deletes its access keys
 * with it, so the impact names them (never their secrets). Not catalogue data: create refuses an existing name
 * and delete reads the keys it takes with it, which the generic verbs cannot.
 */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { type CommandContext, defineCommand } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { countOf } from "../../src/core/units.js";
import { refuseNamed, requireNamed } from "../shared/found.js";
import { rowsListing } from "../shared/listing.js";
import { namedChange } from "../shared/named-change.js";

const PATH = "/object-store-users";
const userSchema = z.looseObject({
  name: z.string(),
  access_keys: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
});
type User = z.output<typeof userSchema>;

const userName = () =>
  objectName("user name")
    .refine((s) => /^[^/]+\/[^/]+$/.test(s), "name the user as <account>/<user>, e.g. analytics/etl")
    .describe("the user, <account>/<user>");
const keysOf = (u: User) => (u.access_keys ?? []).flatMap((k) => (k.name ? [k.name] : []));

async function usersOf(ctx: CommandContext): Promise<User[]> {
  const out: User[] = [];
  for await (const u of ctx.array.iterate(PATH, { schema: userSchema })) out.push(u);
  return out;
}

export const objectUserList = defineCommand({
  verb: "list",
  summary: "Object store users and how many access keys each has",
  examples: ["object-user list", "object-user list --account backup"],
  role: "viewer",
  args: z.object({ account: objectName("account name").optional().describe("only this account's users") }),
  async run(a, ctx) {
    return (await usersOf(ctx))
      .filter((u) => a.account === undefined || u.name.startsWith(`${a.account}/`))
      .map((u) => ({ array: ctx.arrayName, name: u.name, keys: keysOf(u).length }));
  },
  merge: (results) => results.flatMap((r) => r.result),
  render: (rows, a, rctx) =>
    rowsListing(
      rctx,
      rows.map((r) => ({ ...r, keys: String(r.keys) })),
      {
        empty: (where) => `No object store users${a.account ? ` in ${a.account}` : ""} on ${where}.`,
        headline: (where) => `${countOf(rows.length, "object store user")} on ${where}`,
        columns: [
          { key: "name", label: "User" },
          { key: "keys", label: "Access keys", align: "right" },
        ],
        filename: "object-store-users.csv",
      },
    ),
});

export const objectUserCreate = namedChange({
  verb: "create",
  summary: "Create an object store user in an account (then give it a key with access-key create)",
  examples: ["object-user create analytics/etl2"],
  role: "operator",
  args: z.object({ name: userName() }),
  key: "name",
  method: "POST",
  path: PATH,
  what: "object store user",
  async plan(a, ctx) {
    refuseNamed(
      await usersOf(ctx),
      a.name,
      `User ${a.name} already exists on ${ctx.arrayName}. Nothing was changed.`,
    );
    return { summary: rich`Creates object store user *${a.name}* on ${ctx.arrayName}.` };
  },
  answer: (name, array) =>
    `Created object store user ${name} on ${array}. Give it a key with /array access-key create ${name}.`,
});

export const objectUserDelete = namedChange({
  verb: "delete",
  summary: "Delete an object store user and its access keys; gated",
  examples: ["object-user delete analytics/reader"],
  role: "operator",
  args: z.object({ name: userName() }),
  key: "name",
  method: "DELETE",
  path: PATH,
  what: "object store user",
  async plan(a, ctx) {
    const user = requireNamed(
      await usersOf(ctx),
      a.name,
      `There is no object store user ${a.name} on ${ctx.arrayName}.`,
    );
    const keys = keysOf(user);
    return {
      summary: rich`Deletes object store user *${a.name}* on ${ctx.arrayName}, with ${countOf(keys.length, "access key")}.`,
      facts: [{ label: "Access keys", value: rich`${keys.join(", ") || "none"}` }],
      warnings: keys.length ? [rich`Applications signing with those keys lose access for good.`] : [],
      state: { keys: keys.length },
    };
  },
  cls: "delete",
  answer: (name, array) => `Deleted object store user ${name} on ${array}.`,
});
