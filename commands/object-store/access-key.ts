/**
 * `access-key list|create` (import: access-key-import.ts; rotate: access-key-rotate.ts; show, update, delete,
 * enable and disable are the catalogue's): S3 access keys of object store users. A new key's secret is the
 * array's to give once: it goes into a `secret` answer (the requester alone sees it, nothing logs, stores or
 * announces it) and the command keeps it nowhere else. Listings never carry secrets. Hand-written because create
 * checks the user and the per-user limit and answers with the secret, and the list leads with the user and says
 * "no (disabled)", which the generic verbs cannot. Delete's precondition read, naming the user's other keys,
 * lives here.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { type Field, message, rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { ACCOUNT_USER_WIRE, wired } from "../../src/core/words/arg-wire.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import type { Precheck } from "../catalogue/spec.js";
import { rowsListed } from "../shared/listing.js";
import { itemsOf, planned } from "../shared/plan.js";
import { isoTime } from "../shared/shown.js";

export const PATH = "/object-store-access-keys";
/** The array's limit per user. */
export const MAX_KEYS = 2;

export const keySchema = z.looseObject({
  name: z.string(),
  created: z.number().nullish(),
  enabled: z.boolean().nullish(),
  user: z.looseObject({ name: z.string().nullish() }).nullish(),
});
export type Key = z.output<typeof keySchema>;
const createdSchema = keySchema.extend({ secret_access_key: z.string().nullish() });

export const userName = () =>
  wired(
    objectName("user name").refine(
      (s) => /^[^/]+\/[^/]+$/.test(s),
      "name the user as <account>/<user>, e.g. analytics/etl",
    ),
    ACCOUNT_USER_WIRE,
  ).describe("the object store user, <account>/<user>");
export const keyName = () => objectName("access key id").describe("the access key id (PSFB…)");

export async function keysOf(ctx: CommandContext, user?: string): Promise<Key[]> {
  const query = user === undefined ? {} : { filter: eq("user.name", user) };
  const out: Key[] = [];
  for await (const k of ctx.array.iterate(PATH, { query, schema: keySchema })) {
    if (user === undefined || k.user?.name === user) out.push(k);
  }
  return out;
}

export async function requireUser(ctx: CommandContext, user: string): Promise<void> {
  const page = await ctx.array.get("/object-store-users", {
    query: { filter: eq("name", user) },
    schema: z.looseObject({ name: z.string() }),
  });
  if (!page.items.some((u) => u.name === user)) {
    throw new UserFacingError(
      "NOT_FOUND",
      `There is no object store user ${user} on ${ctx.arrayName}. See the keys there with \`/array access-key list --array ${ctx.arrayName}\`.`,
    );
  }
}

/** The keys of a user who must exist (a new key is for them). */
export async function keysOfUser(ctx: CommandContext, user: string): Promise<Key[]> {
  await requireUser(ctx, user);
  return keysOf(ctx, user);
}

/** Refuses a new key for a user who has the most keys a user can have; `rest` ends the sentence (what to do). */
export function refuseFull(
  user: string,
  keys: readonly Key[],
  rest = ". Delete one first with `/array access-key delete <key>`.",
): void {
  if (keys.length < MAX_KEYS) return;
  throw new UserFacingError(
    "TOO_MANY_KEYS",
    `${user} already has ${keys.length} access keys (${keys.map((k) => k.name).join(", ")}), the most a user can have${rest}`,
  );
}

/** The card's fact naming the keys a user has before a new one. */
export const keysFact = (keys: readonly Key[]): Field => ({
  label: "Keys it has",
  value: rich`${keys.map((k) => k.name).join(", ") || "none"}`,
});

interface KeyRow {
  array: string;
  name: string;
  user: string;
  enabled: boolean;
  created: number | undefined;
}

export const accessKeyList = defineCommand({
  verb: "list",
  summary: "Access keys by user, enabled or not (never their secrets)",
  examples: ["access-key list", "access-key list analytics/etl", "access-key list --array all"],
  role: "viewer",
  endpoints: ["GET /object-store-access-keys"],
  positional: ["user"],
  args: z.object({ user: userName().optional() }),
  async run(a, ctx) {
    // Rows name only what the table shows: a key read from the array never travels further than here.
    return (await keysOf(ctx, a.user)).map(
      (k): KeyRow => ({
        array: ctx.arrayName,
        name: k.name,
        user: k.user?.name ?? "?",
        enabled: k.enabled !== false,
        created: k.created ?? undefined,
      }),
    );
  },
  ...rowsListed(
    (r: KeyRow, rctx) => ({
      user: r.user,
      name: r.name,
      enabled: r.enabled ? "yes" : "no (disabled)",
      created: r.created === undefined ? "–" : formatWhen(r.created, rctx.now, rctx.timeZone),
    }),
    (a: { user?: string | undefined }) => ({
      noun: "access key",
      scope: a.user && `of ${a.user}`,
      columns: { user: "User", name: "Access key id", enabled: "Enabled", created: "Created" },
    }),
    (r: KeyRow) => ({ user: r.user, name: r.name, enabled: r.enabled, created: isoTime(r.created) }),
  ),
});

export const accessKeyCreate = defineCommand({
  verb: "create",
  summary: "A new S3 access key for a user; its secret is shown once, to you alone",
  examples: ["access-key create analytics/etl"],
  role: "operator",
  endpoints: ["POST /object-store-access-keys"],
  visibility: "ephemeral",
  positional: ["user"],
  args: z.object({ user: userName() }),
  async impact(a, ctx): Promise<Impact> {
    const keys = await keysOfUser(ctx, a.user);
    refuseFull(a.user, keys);
    return {
      target: `access key for ${a.user}`,
      summary: rich`Creates an S3 access key for *${a.user}* on ${ctx.arrayName}; its secret is shown once, only to the requester.`,
      facts: [keysFact(keys)],
      warnings: [],
      state: { keys: keys.length },
      requests: [planned("POST", PATH, {}, { user: { name: a.user } })],
    };
  },
  result(responses, a, ctx, _impact) {
    const key = createdKey(ctx, responses, a.user, "create another");
    return { user: a.user, name: key.name, secret: key.secret };
  },
  render(r, _a, rctx) {
    return message(
      `New access key for ${r.user} on ${rctx.arrays[0] ?? "?"}: shown once, only to you.`,
      [
        {
          type: "section",
          text: rich`New access key for *${r.user}* on ${rctx.arrays[0] ?? "?"}. Only you can see this, and it will not be shown again: store the secret now (e.g. in your vault).`,
        },
        { type: "fields", fields: [{ label: "Access key id", value: rich`\`${r.name}\`` }] },
        { type: "code", text: r.secret },
        { type: "context", text: rich`Lost it? Create another key and delete this one.` },
      ],
      { visibility: "ephemeral", secret: true },
    );
  },
});

/** Before a delete (the catalogue's verb): the user's other keys, and whether it is left with none. */
export const accessKeyDeleteCheck: Precheck = async (ctx, { name, item }) => {
  const key = keySchema.parse(item ?? { name });
  const user = key.user?.name ?? "?";
  const others = (await keysOf(ctx, user)).filter((k) => k.name !== name);
  return {
    summary: rich`Deletes access key ${name} of *${user}* on ${ctx.arrayName}.`,
    facts: [
      { label: "Enabled", value: rich`${key.enabled === false ? "no" : "yes"}` },
      { label: "Other keys of the user", value: rich`${others.map((k) => k.name).join(", ") || "none"}` },
    ],
    warnings: [
      rich`Applications signing with this key get Access Denied; a deleted key cannot be recovered.${others.length === 0 ? ` ${user} will have no access key left.` : ""}`,
    ],
    state: { enabled: key.enabled ?? null, other_keys: others.length },
  };
};

/**
 * The key a POST made, with its secret: the array gives it once, in that answer. One that came without a secret
 * is refused, saying what to do (`then`: "create another", "rotate again").
 */
export function createdKey(
  ctx: Parameters<typeof itemsOf>[0],
  responses: Parameters<typeof itemsOf>[1],
  user: string,
  then: string,
): { name: string; secret: string } {
  const [key] = itemsOf(ctx, responses, createdSchema);
  if (!key?.secret_access_key)
    throw new UserFacingError(
      "NO_SECRET",
      `${ctx.arrayName} created an access key for ${user}${key ? ` (${key.name})` : ""} but sent no secret. Delete it and ${then}.`,
    );
  return { name: key.name, secret: key.secret_access_key };
}
