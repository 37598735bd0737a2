/**
 * `fs-link list|create` (REST 1.9+): file system replica links with the policies that schedule them and their
 * transfers — the newest completed snapshot and the one on its way — from /file-system-replica-links/transfer.
 * Hand-written because the list joins links with their transfers, and create checks the file system and the
 * policy first, which the generic verbs cannot.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { formatTimestamp, formatWhen } from "../../src/core/presentation/format-time.js";
import { rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { formatDuration } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemReplicaLinkSchema } from "../../src/flashblade/schemas.js";
import { requirePolicy } from "../policy/read.js";
import { done } from "../shared/done.js";
import { requireLiveFileSystem } from "../shared/file-system-facts.js";
import { rowsListed } from "../shared/listing.js";
import { planned } from "../shared/plan.js";
import { isoTime } from "../shared/shown.js";
import { requireConnected, requireReplicationApi } from "./read.js";

const PATH = "/file-system-replica-links";
const transferSchema = z.looseObject({
  name: z.string().nullish(),
  status: z.string().nullish(),
  progress: z.number().nullish(),
  completed: z.number().nullish(),
  direction: z.string().nullish(),
});

interface FsLinkRow {
  array: string;
  link: string;
  status: string;
  policies: string;
  lag: number | undefined;
  /** The newest snapshot sent, and when it was taken (the link's recovery point) or else when it arrived. */
  lastDone: { name: string; at: number; taken: boolean } | undefined;
  sending: string | undefined;
}

export const fsLinkList = defineCommand({
  verb: "list",
  summary: "File system replica links: policies, lag, the last snapshot sent and the one on its way",
  examples: ["replica-link fs list", "replica-link fs list home", "replica-link fs list --array all"],
  role: "viewer",
  endpoints: ["GET /file-system-replica-links", "GET /file-system-replica-links/transfer"],
  positional: ["fs"],
  args: z.object({ fs: objectName("file system name").optional().describe("only this file system's links") }),
  async run(a, ctx): Promise<FsLinkRow[]> {
    await requireReplicationApi(ctx);
    const transfers: z.output<typeof transferSchema>[] = [];
    for await (const t of ctx.array.iterate(`${PATH}/transfer`, { schema: transferSchema }))
      transfers.push(t);
    const rows: FsLinkRow[] = [];
    for await (const l of ctx.array.iterate(PATH, { schema: fileSystemReplicaLinkSchema })) {
      const fs = l.local_file_system?.name ?? "?";
      if (a.fs !== undefined && fs !== a.fs) continue;
      const mine = transfers.filter((t) => t.direction !== "inbound" && t.name?.split(".")[0] === fs);
      const last = mine
        .filter((t) => t.status === "completed" && typeof t.completed === "number")
        .sort((x, y) => (y.completed ?? 0) - (x.completed ?? 0))[0];
      const sending = mine.find((t) => t.status === "in-progress");
      const remoteFs = l.remote_file_system?.name ?? fs;
      rows.push({
        array: ctx.arrayName,
        link: `${fs} → ${l.remote?.name ?? "?"}${remoteFs === fs ? "" : `:${remoteFs}`}`,
        status: `${l.status ?? "?"}${l.direction === "inbound" ? " (inbound)" : ""}`,
        policies: (l.policies ?? []).map((p) => p.name ?? "?").join(", ") || "none",
        lag: l.lag ?? undefined,
        lastDone: last?.name
          ? typeof l.recovery_point === "number"
            ? { name: last.name, at: l.recovery_point, taken: true }
            : { name: last.name, at: last.completed ?? 0, taken: false }
          : undefined,
        sending: sending?.name
          ? `${sending.name} (${Math.round((sending.progress ?? 0) * 100)}%)`
          : undefined,
      });
    }
    return rows;
  },
  ...rowsListed(
    (r: FsLinkRow, rctx) => ({
      link: r.link,
      status: r.status,
      policies: r.policies,
      lag: r.lag === undefined ? "–" : formatDuration(r.lag),
      // "taken" is the link's recovery point: the lag beside it is measured from that same moment.
      last: r.lastDone
        ? r.lastDone.taken
          ? `${r.lastDone.name}, taken ${formatTimestamp(r.lastDone.at, rctx.timeZone)}`
          : `${r.lastDone.name}, sent ${formatWhen(r.lastDone.at, rctx.now, rctx.timeZone)}`
        : "–",
      sending: r.sending ?? "–",
    }),
    (a: { fs?: string | undefined }) => ({
      noun: "file system replica link",
      scope: a.fs && `for ${a.fs}`,
      columns: {
        link: "Link",
        status: "Status",
        policies: "Policies",
        lag: "Lag",
        last: "Last snapshot sent",
        sending: "Sending now",
      },
      right: ["lag"],
    }),
    (r: FsLinkRow) => ({
      link: r.link,
      status: r.status,
      policies: r.policies,
      lag: r.lag ?? null,
      last: r.lastDone?.name ?? null,
      last_at: isoTime(r.lastDone?.at),
      sending: r.sending ?? null,
    }),
  ),
});

export const fsLinkCreate = defineCommand({
  verb: "create",
  summary: "Replicate a file system to a connected array, on a snapshot policy's schedule",
  examples: ["replica-link fs create db-dumps --remote fb-dr-01 --policy daily"],
  role: "operator",
  endpoints: ["POST /file-system-replica-links"],
  visibility: "in_channel",
  positional: ["fs"],
  args: z.object({
    fs: objectName("file system name").describe("the local file system"),
    remote: objectName("array name").describe("the connected array to replicate to"),
    policy: objectName("policy name").optional().describe("the snapshot policy whose snapshots are sent"),
    remoteFs: objectName("file system name")
      .optional()
      .describe("the target file system (default: the same name)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requireReplicationApi(ctx);
    await requireLiveFileSystem(ctx, a.fs);
    await requireConnected(ctx, a.remote);
    const every = a.policy === undefined ? undefined : await requirePolicy(ctx, a.policy);
    const existing = await ctx.array.replicaLinks.forFileSystem(a.fs);
    if (existing.some((l) => l.remote?.name === a.remote)) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `${a.fs} already replicates to ${a.remote}. Nothing was changed.`,
      );
    }
    const remoteFs = a.remoteFs ?? a.fs;
    const query = {
      local_file_system_names: [a.fs],
      remote_names: [a.remote],
      remote_file_system_names: [remoteFs],
    };
    const shortest = Math.min(...(every?.rules ?? []).map((r) => r.every));
    return {
      target: `file system replica link ${a.fs} → ${a.remote}`,
      summary: rich`Replicates *${a.fs}* to ${a.remote}:${remoteFs}${a.policy ? `, sending the snapshots of policy ${a.policy}` : ""}.`,
      facts: Number.isFinite(shortest)
        ? [{ label: "Interval", value: rich`${formatDuration(shortest)}` }]
        : [],
      warnings: a.policy
        ? []
        : [
            rich`With no policy nothing schedules its transfers; attach one with \`/array policy attach <policy> ${a.fs} --remote ${a.remote}\`.`,
          ],
      state: { links: existing.length },
      requests: [planned("POST", PATH, query, a.policy ? { policies: [{ name: a.policy }] } : {})],
    };
  },
  result(_responses, a, _ctx, impact) {
    return impact?.target ?? a.fs;
  },
  render: (target, _a, rctx) =>
    done(`Created ${target} on ${rctx.arrays[0] ?? "?"}. Watch it with /array replication status.`),
});
