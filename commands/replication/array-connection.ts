/**
 * `array-connection list|create|delete` and `connection-key create` (REST 1.9+). Connections are selected by
 * `remote_names` / `remote_ids`, never by name. Connecting two arrays this bot manages needs no key typed in
 * chat: `create` asks the remote array for a fresh connection key and hands it straight to the local one, so the
 * key is never shown, logged or stored. For a remote the bot does not manage, `connection-key create` shows a
 * key once, privately, to paste into that array. Hand-written because the key made on one array and handed to
 * another, and the selection by remote, are beyond the generic verbs.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { flag, objectName } from "../../src/core/words/arg-types.js";
import { countOf } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemReplicaLinkSchema } from "../../src/flashblade/schemas.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { done } from "../shared/done.js";
import { rowsListed } from "../shared/listing.js";
import { itemsOf, planned } from "../shared/plan.js";
import { bucketLinkSchema, connectionSchema, readAll, requireReplicationApi } from "./read.js";

const PATH = "/array-connections";
const KEY_PATH = "/array-connections/connection-key";
type Connection = z.output<typeof connectionSchema>;
const keySchema = z.looseObject({ connection_key: z.string(), expires: z.number().nullish() });

async function connections(ctx: CommandContext): Promise<Connection[]> {
  await requireReplicationApi(ctx);
  return readAll(ctx, PATH, connectionSchema);
}

export const arrayConnectionList = defineCommand({
  verb: "list",
  summary: "Connections to other arrays: status, addresses, encryption",
  examples: ["array-connection list", "array-connection list --array all"],
  role: "viewer",
  endpoints: ["GET /array-connections"],
  args: z.object({}),
  async run(_a, ctx) {
    return (await connections(ctx)).map((c) => ({ array: ctx.arrayName, c }));
  },
  ...rowsListed(
    ({ c }: { array: string; c: Connection }) => ({
      remote: c.remote?.name ?? "?",
      status: (c.status ?? "?").replace(/_/g, " "),
      address: c.management_address ?? "–",
      replication: (c.replication_addresses ?? []).join(", ") || "–",
      encrypted: c.encrypted ? "yes" : "no",
      version: c.version ?? "–",
    }),
    () => ({
      noun: "array connection",
      columns: {
        remote: "Remote",
        status: "Status",
        address: "Management address",
        replication: "Replication addresses",
        encrypted: "Encrypted",
        version: "Remote version",
      },
    }),
    ({ c }: { array: string; c: Connection }) => ({
      remote: c.remote?.name ?? null,
      status: c.status ?? null,
      address: c.management_address ?? null,
      replication: c.replication_addresses ?? [],
      encrypted: c.encrypted ?? false,
      version: c.version ?? null,
    }),
  ),
});

/** The remote end as a client of this bot, or a clear refusal. */
function managedRemote(ctx: CommandContext, remote: string): ArrayClient {
  if (remote === ctx.arrayName) {
    throw new UserFacingError("INVALID_ARGUMENTS", `An array cannot connect to itself (${remote}).`);
  }
  try {
    return ctx.pool.get(remote);
  } catch {
    throw new UserFacingError(
      "NOT_FOUND",
      `${remote} is not an array this bot manages, so it cannot fetch its connection key. Create a key on ${remote} itself (or with \`/array connection-key create --array ${remote}\` where it is managed) and connect from its GUI.`,
    );
  }
}

const KEY_PLACEHOLDER = "(fetched from the remote)";

export const arrayConnectionCreate = defineCommand({
  verb: "create",
  summary: "Connect this array to another array this bot manages (it fetches the connection key itself)",
  examples: [
    "array-connection create fb-dr-01 --address 10.31.0.20 --array fb-lab-01",
    "array-connection create fb-dr-01 --address 10.31.0.20 --encrypted --array fb-lab-01",
  ],
  // Creating a key on the remote replaces any key outstanding there, so the remote is changed too.
  role: "admin",
  endpoints: ["GET /array-connections", "POST /array-connections", "GET /array-connections/connection-key"],
  visibility: "in_channel",
  positional: ["remote"],
  args: z.object({
    remote: objectName("array name").describe("the array to connect to (one this bot manages)"),
    address: objectName("address").describe("the remote array's management address"),
    encrypted: flag().optional().describe("send replicated data over TLS"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const existing = await connections(ctx);
    const remote = managedRemote(ctx, a.remote);
    if (!(await remote.supports("1.9"))) {
      throw new UserFacingError(
        "NOT_SUPPORTED",
        `${a.remote} speaks REST ${await remote.version()}; connections need 1.9.`,
      );
    }
    const clash = existing.find((c) => c.remote?.name === a.remote || c.management_address === a.address);
    if (clash) {
      throw new UserFacingError(
        "ALREADY_CONNECTED",
        `${ctx.arrayName} already has a connection to ${clash.remote?.name ?? "?"} (${clash.management_address ?? "?"}, ${clash.status ?? "?"}). Nothing was changed.`,
      );
    }
    const body = {
      management_address: a.address,
      connection_key: KEY_PLACEHOLDER,
      encrypted: a.encrypted === true,
      remote: { name: a.remote },
    };
    return {
      target: `array connection ${ctx.arrayName} → ${a.remote}`,
      summary: rich`Connects ${ctx.arrayName} to *${a.remote}* at ${a.address}${a.encrypted ? " (encrypted)" : ""}, with a connection key the bot creates on ${a.remote}.`,
      facts: [
        {
          label: "Existing connections",
          value: rich`${existing.map((c) => c.remote?.name ?? "?").join(", ") || "none"}`,
        },
      ],
      warnings: [rich`Creating a key on ${a.remote} replaces any connection key outstanding there.`],
      state: { connections: existing.length },
      // The key is made on the remote (the first request, sent there) and fills the second's placeholder.
      requests: [{ ...planned("POST", KEY_PATH), on: a.remote }, planned("POST", PATH, {}, body)],
      placeholders: [KEY_PLACEHOLDER],
    };
  },
  async fill(a, ctx, responses) {
    const [key] = itemsOf(ctx, responses, keySchema, 0);
    if (!key)
      throw new UserFacingError("NO_KEY", `${a.remote} returned no connection key. Nothing was changed.`);
    return { [KEY_PLACEHOLDER]: key.connection_key };
  },
  result(responses, a, ctx) {
    const [c] = itemsOf(ctx, responses, connectionSchema);
    return { remote: a.remote, status: c?.status ?? "?" };
  },
  render: (r, _a, rctx) =>
    done(
      `Connected ${rctx.arrays[0] ?? "?"} to ${r.remote} (${r.status.replace(/_/g, " ")}). Replicate with /array bucket-link create or a file system replica link.`,
    ),
});

export const arrayConnectionDelete = defineCommand({
  verb: "delete",
  summary: "Disconnect from another array (only once no replica link uses the connection); gated",
  examples: ["array-connection delete fb-archive-01"],
  role: "admin",
  endpoints: ["GET /array-connections", "DELETE /array-connections"],
  visibility: "in_channel",
  positional: ["remote"],
  args: z.object({ remote: objectName("array name").describe("the remote array") }),
  async impact(a, ctx): Promise<Impact> {
    const conn = (await connections(ctx)).find((c) => c.remote?.name === a.remote);
    if (!conn)
      throw new UserFacingError(
        "NOT_FOUND",
        `${ctx.arrayName} has no connection to ${a.remote}. Nothing was changed.`,
      );
    const links: string[] = [];
    for await (const l of ctx.array.iterate("/bucket-replica-links", { schema: bucketLinkSchema }))
      if (l.remote?.name === a.remote) links.push(`bucket ${l.local_bucket?.name ?? "?"}`);
    for await (const l of ctx.array.iterate("/file-system-replica-links", {
      schema: fileSystemReplicaLinkSchema,
    }))
      if (l.remote?.name === a.remote) links.push(`file system ${l.local_file_system?.name ?? "?"}`);
    if (links.length) {
      throw new UserFacingError(
        "IN_USE",
        `The connection to ${a.remote} still carries ${countOf(links.length, "replica link")} (${links.join(", ")}); delete those first. Nothing was changed.`,
      );
    }
    return {
      target: `array connection ${ctx.arrayName} → ${a.remote}`,
      summary: rich`Disconnects ${ctx.arrayName} from *${a.remote}* (${conn.management_address ?? "?"}).`,
      facts: [{ label: "Status", value: rich`${conn.status ?? "?"}` }],
      warnings: [rich`Reconnecting needs a new connection key from ${a.remote}.`],
      state: { status: conn.status ?? null },
      requests: [planned("DELETE", PATH, { remote_names: [a.remote] })],
    };
  },
  destructive: () => "delete_replication",
  gateClasses: ["delete_replication"],
  result(_responses, a, _ctx, _impact) {
    return a.remote;
  },
  render: (remote, _a, rctx) => done(`Disconnected ${rctx.arrays[0] ?? "?"} from ${remote}.`),
});

export const connectionKeyCreate = defineCommand({
  verb: "create",
  summary: "A key another array uses to connect to this one; shown once, to you alone",
  examples: ["array-connection key create --array fb-dr-01"],
  role: "admin",
  endpoints: ["POST /array-connections/connection-key"],
  visibility: "ephemeral",
  args: z.object({}),
  async impact(_a, ctx): Promise<Impact> {
    await requireReplicationApi(ctx);
    return {
      target: `connection key of ${ctx.arrayName}`,
      summary: rich`Creates a connection key on ${ctx.arrayName}; it replaces any key outstanding there and is shown once, only to you.`,
      facts: [],
      warnings: [],
      state: {},
      requests: [planned("POST", KEY_PATH)],
    };
  },
  result(responses, _a, ctx, _impact) {
    const [key] = itemsOf(ctx, responses, keySchema);
    if (!key) throw new UserFacingError("NO_KEY", `${ctx.arrayName} returned no connection key.`);
    return { key: key.connection_key, expires: key.expires ?? undefined };
  },
  render(r, _a, rctx) {
    const until =
      r.expires === undefined ? "" : ` It expires ${formatWhen(r.expires, rctx.now, rctx.timeZone)}.`;
    return message(
      `Connection key for ${rctx.arrays[0] ?? "?"}: shown once, only to you.`,
      [
        {
          type: "section",
          text: rich`Connection key for *${rctx.arrays[0] ?? "?"}*. Only you can see this, and it will not be shown again: paste it into the other array's connection form.${until}`,
        },
        { type: "code", text: r.key },
      ],
      { visibility: "ephemeral", secret: true },
    );
  },
});
