/**
 * `object-user list`: object store users (`account/user`) and how many access keys each has. Hand-written because
 * the list counts each user's keys and filters by account, which the generic list cannot. Create and delete are
 * the catalogue's (catalogue/object-store.ts); delete's precondition read, naming the keys that go with the user
 * (never their secrets), lives here.
 */
import { z } from "zod";
import { type CommandContext, defineCommand } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { countOf } from "../../src/core/words/units.js";
import type { Precheck } from "../catalogue/spec.js";
import { rowsListing } from "../shared/listing.js";

const PATH = "/object-store-users";
const userSchema = z.looseObject({
  name: z.string(),
  access_keys: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
});
type User = z.output<typeof userSchema>;
const keysOf = (u: User) => (u.access_keys ?? []).flatMap((k) => (k.name ? [k.name] : []));

export async function usersOf(ctx: CommandContext): Promise<User[]> {
  const out: User[] = [];
  for await (const u of ctx.array.iterate(PATH, { schema: userSchema })) out.push(u);
  return out;
}

export const objectUserList = defineCommand({
  verb: "list",
  summary: "Object store users and how many access keys each has",
  examples: ["object-user list", "object-user list --account backup"],
  role: "viewer",
  endpoints: ["GET /object-store-users"],
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
        values: rows,
      },
    ),
});

/** Before a delete: the user's access keys, deleted with it, named in the impact. */
export const userDeleteCheck: Precheck = async (ctx, { name, item }) => {
  const keys = keysOf(userSchema.parse(item ?? { name }));
  return {
    summary: rich`Deletes object store user *${name}* on ${ctx.arrayName}, with ${countOf(keys.length, "access key")}.`,
    facts: [{ label: "Access keys", value: rich`${keys.join(", ") || "none"}` }],
    warnings: keys.length ? [rich`Applications signing with those keys lose access for good.`] : [],
    state: { keys: keys.length },
  };
};
