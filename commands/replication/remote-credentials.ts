/**
 * `remote-credentials list|create|rotate` (REST 1.9+; delete is the catalogue's): the S3 keys a bucket replica link uses to write
 * into the remote bucket. When the remote is an array this bot manages, `create` and `rotate` make a new access
 * key for a user there and hand it straight to the local array: nobody sees, types, logs or stores the secret.
 * Hand-written because that hand-over between two arrays is beyond the generic verbs. Delete's precondition read
 * (refused while a link uses them) lives here.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import type { Responses } from "../../src/core/requests/send-plan.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { ACCOUNT_USER_WIRE, wired } from "../../src/core/words/arg-wire.js";
import { UserFacingError } from "../../src/errors.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import type { Precheck } from "../catalogue/spec.js";
import { done } from "../shared/done.js";
import { refuseNamed, requireNamed } from "../shared/found.js";
import { rowsListed } from "../shared/listing.js";
import { itemsOf, planned } from "../shared/plan.js";
import { bucketLinksOf } from "./bucket-link-facts.js";
import { readAll, requireReplicationApi } from "./read.js";

const PATH = "/object-store-remote-credentials";
const credSchema = z.looseObject({
  name: z.string(),
  access_key_id: z.string().nullish(),
  remote: z.looseObject({ name: z.string().nullish() }).nullish(),
});
const newKeySchema = z.looseObject({ name: z.string(), secret_access_key: z.string().nullish() });

const credName = () =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/,
      "use <remote>/<name>, e.g. fb-dr-01/repl-creds",
    )
    .describe("the credentials, <remote>/<name>");
const userName = () =>
  wired(
    objectName("user name").refine(
      (s) => /^[^/]+\/[^/]+$/.test(s),
      "name the user as <account>/<user>, e.g. backup/replication",
    ),
    ACCOUNT_USER_WIRE,
  ).describe("the object store user on the remote array whose new key the link writes with");

async function credentials(ctx: CommandContext) {
  await requireReplicationApi(ctx);
  return readAll(ctx, PATH, credSchema);
}

async function requireCredentials(ctx: CommandContext, name: string) {
  return requireNamed(
    await credentials(ctx),
    name,
    `There are no remote credentials ${name} on ${ctx.arrayName}.`,
  );
}

function remoteOf(ctx: CommandContext, name: string): { remote: string; client: ArrayClient } {
  const remote = name.split("/")[0] ?? "";
  try {
    return { remote, client: ctx.pool.get(remote) };
  } catch {
    throw new UserFacingError(
      "NOT_FOUND",
      `${remote} is not an array this bot manages, so it cannot make a key there. Create the credentials in ${ctx.arrayName}'s GUI with a key from ${remote}.`,
    );
  }
}

const KEYS_PATH = "/object-store-access-keys";
const NEW_KEY = "(new key)";
const NEVER_SHOWN = "(never shown)";

/** The access key the remote made for `user` (its secret lives only in this run's memory), as placeholder values. */
function newRemoteKey(ctx: CommandContext, user: string, remote: string, responses: Responses) {
  const [key] = itemsOf(ctx, responses, newKeySchema, 0);
  if (!key?.secret_access_key) {
    throw new UserFacingError(
      "NO_SECRET",
      `${remote} made no usable access key for ${user}. Nothing was changed on ${ctx.arrayName}.`,
    );
  }
  return Promise.resolve({ [NEW_KEY]: key.name, [NEVER_SHOWN]: key.secret_access_key });
}

const keyArgs = z.object({ name: credName(), user: userName() });
type KeyArgs = z.output<typeof keyArgs>;

/** Create's and rotate's requests: the remote makes a key for the user, then `method` stores it here. */
function keyHandOver(method: "POST" | "PATCH", a: KeyArgs, remote: string) {
  return {
    requests: [
      { ...planned("POST", KEYS_PATH, {}, { user: { name: a.user } }), on: remote },
      planned(method, PATH, { names: [a.name] }, { access_key_id: NEW_KEY, secret_access_key: NEVER_SHOWN }),
    ],
    placeholders: [NEW_KEY, NEVER_SHOWN],
  };
}

/** What create and rotate share after the impact: filling the placeholders and naming the key made. */
const keyHandOverRun = {
  // The new key, made on the remote by the first request, fills the second's placeholders.
  fill: async (a: KeyArgs, ctx: CommandContext, responses: Responses) =>
    newRemoteKey(ctx, a.user, remoteOf(ctx, a.name).remote, responses),
  result: (responses: Responses, a: KeyArgs, ctx: CommandContext) => ({
    name: a.name,
    key: itemsOf(ctx, responses, newKeySchema, 0)[0]?.name ?? "?",
  }),
};

export const remoteCredentialsList = defineCommand({
  verb: "list",
  summary: "Remote credentials for bucket replication: which key each uses (never its secret)",
  examples: ["remote-credentials list", "remote-credentials list --array all"],
  role: "viewer",
  endpoints: ["GET /object-store-remote-credentials"],
  args: z.object({}),
  async run(_a, ctx) {
    return (await credentials(ctx)).map((c) => ({
      array: ctx.arrayName,
      name: c.name,
      key: c.access_key_id,
    }));
  },
  ...rowsListed(
    (r: { array: string; name: string; key?: string | null | undefined }) => ({
      name: r.name,
      key: r.key ?? "–",
    }),
    () => ({ noun: "remote credential", columns: { name: "Name", key: "Access key id" } }),
    (r: { array: string; name: string; key?: string | null | undefined }) => ({
      name: r.name,
      key: r.key ?? null,
    }),
  ),
});

export const remoteCredentialsCreate = defineCommand({
  verb: "create",
  summary: "Credentials for replicating to a managed array: a new key for a user there, never shown",
  examples: ["remote-credentials create fb-dr-01/repl --user backup/replication --array fb-lab-01"],
  role: "admin",
  endpoints: [
    "GET /object-store-remote-credentials",
    "POST /object-store-remote-credentials",
    "POST /object-store-access-keys {on the remote array}",
  ],
  visibility: "in_channel",
  positional: ["name"],
  args: keyArgs,
  async impact(a, ctx): Promise<Impact> {
    const existing = await credentials(ctx);
    refuseNamed(
      existing,
      a.name,
      `Remote credentials ${a.name} already exist on ${ctx.arrayName}; rotate them with \`/array remote-credentials rotate ${a.name} --user ${a.user}\`.`,
    );
    const { remote } = remoteOf(ctx, a.name);
    return {
      target: `remote credentials ${a.name}`,
      summary: rich`Creates an access key for *${a.user}* on ${remote} and stores it on ${ctx.arrayName} as remote credentials ${a.name}; the secret is never shown.`,
      facts: [],
      warnings: [],
      state: { credentials: existing.length },
      ...keyHandOver("POST", a, remote),
    };
  },
  ...keyHandOverRun,
  render: (r, _a, rctx) =>
    done(`Created remote credentials ${r.name} on ${rctx.arrays[0] ?? "?"} (access key ${r.key}).`),
});

export const remoteCredentialsRotate = defineCommand({
  verb: "rotate",
  summary:
    "Give remote credentials a new key from the managed remote array (the old key stays there until deleted)",
  examples: ["remote-credentials rotate fb-dr-01/repl-creds --user backup/veeam"],
  role: "admin",
  endpoints: [
    "GET /object-store-remote-credentials",
    "PATCH /object-store-remote-credentials {secret_access_key}",
    "POST /object-store-access-keys {on the remote array, rotating}",
  ],
  visibility: "in_channel",
  positional: ["name"],
  args: keyArgs,
  async impact(a, ctx): Promise<Impact> {
    const cred = await requireCredentials(ctx, a.name);
    const { remote } = remoteOf(ctx, a.name);
    return {
      target: `remote credentials ${a.name}`,
      summary: rich`Creates a new access key for *${a.user}* on ${remote} and switches ${a.name} to it; the secret is never shown.`,
      facts: [{ label: "Key now", value: rich`${cred.access_key_id ?? "?"}` }],
      warnings: [
        rich`Delete the old key on ${remote} afterwards with \`/array access-key delete ${cred.access_key_id ?? "<key>"} --array ${remote}\`.`,
      ],
      state: { key: cred.access_key_id ?? null },
      ...keyHandOver("PATCH", a, remote),
    };
  },
  ...keyHandOverRun,
  render: (r, _a, rctx) =>
    done(`Remote credentials ${r.name} on ${rctx.arrays[0] ?? "?"} now use access key ${r.key}.`),
});

/** Before a delete (the catalogue's verb): refused while a bucket replica link uses them. */
export const remoteCredentialsDeleteCheck: Precheck = async (ctx, { name, item }) => {
  const users = (await bucketLinksOf(ctx)).filter((l) => l.remote_credentials?.name === name);
  if (users.length) {
    throw new UserFacingError(
      "IN_USE",
      `Bucket replica links of ${users.map((l) => l.local_bucket?.name ?? "?").join(", ")} use ${name}; switch them with \`/array bucket-link credentials\` or delete them first. Nothing was changed.`,
    );
  }
  const key = credSchema.parse(item ?? { name }).access_key_id ?? null;
  return {
    summary: rich`Deletes remote credentials ${name} from ${ctx.arrayName}.`,
    facts: [{ label: "Access key", value: rich`${key ?? "?"}` }],
    state: { key },
  };
};
