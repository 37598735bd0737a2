/**
 * `account list|create|delete`: object store accounts. Deleting one deletes its users and their access keys
 * with it, so the impact counts them; the array refuses while the account still has buckets, and so do we,
 * naming them, before anything is sent.
 */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/define-command.js";
import { message, rich } from "../../src/core/message.js";
import { truncatedTable } from "../../src/core/table.js";
import { countOf, formatBytes } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { done } from "../shared/done.js";
import { arraysCovered, listingMessage } from "../shared/listing.js";
import { planned } from "../shared/plan.js";
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
  render(rows, _a, rctx) {
    const { many, where } = arraysCovered(rctx);
    if (rows.length === 0) {
      const text = `No object store accounts on ${where}.`;
      return message(text, [{ type: "section", text: rich`${text}` }]);
    }
    const headline = `${countOf(rows.length, "object store account")} on ${where}`;
    const table = truncatedTable(
      [
        ...(many ? [{ key: "array", label: "Array" }] : []),
        { key: "name", label: "Account" },
        { key: "buckets", label: "Buckets", align: "right" as const },
        { key: "users", label: "Users", align: "right" as const },
        { key: "used", label: "Used", align: "right" as const },
      ],
      rows.map((r) => ({
        ...r,
        buckets: String(r.buckets),
        users: String(r.users),
        used: formatBytes(r.used),
      })),
      { filename: "object-store-accounts.csv", title: headline },
    );
    return listingMessage(headline, table);
  },
});

export const accountCreate = defineCommand({
  verb: "create",
  summary: "Create an object store account",
  examples: ["object-account create media"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({ name: objectName("account name", "account").describe("the account") }),
  async impact(a, ctx): Promise<Impact> {
    return {
      target: `object store account ${a.name}`,
      summary: rich`Creates object store account *${a.name}* on ${ctx.arrayName}.`,
      facts: [],
      warnings: [],
      state: {},
      requests: [planned("POST", PATH, { names: [a.name] })],
    };
  },
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, _a, rctx) => {
    const text = `Created object store account ${name} on ${rctx.arrays[0] ?? "?"}. Add buckets with /array bucket create <name> --account ${name}.`;
    return done(text);
  },
});

export const accountDelete = defineCommand({
  verb: "delete",
  summary:
    "Delete an object store account with its users and their access keys (it must hold no buckets); gated",
  examples: ["object-account delete archive"],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({ name: objectName("account name").describe("the account") }),
  async impact(a, ctx): Promise<Impact> {
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
      target: `object store account ${a.name}`,
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
      requests: [planned("DELETE", PATH, { names: [a.name] })],
    };
  },
  destructive: () => "delete",
  gateClasses: ["delete"],
  result(_responses, a, _ctx, _impact) {
    return a.name;
  },
  render: (name, _a, rctx) => {
    const text = `Deleted object store account ${name} on ${rctx.arrays[0] ?? "?"}.`;
    return done(text);
  },
});
