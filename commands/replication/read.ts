/**
 * Reading an array's replication state into one row per link: file system and bucket replica links, the
 * newest transfers, the policies that schedule them, and what the array says about the paths to the remote
 * end (array connections and their paths, S3 targets, remote credentials), from which the break-fix hints come.
 */
import { z } from "zod";
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemReplicaLinkSchema, referenceSchema } from "../../src/flashblade/schemas.js";
import { requireApi } from "../../src/flashblade/wire.js";
import { listPolicies, rulesOf } from "../policy/read.js";
import { detailHints } from "./hints.js";

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const bucketLinkSchema = z.looseObject({
  id: opt(z.string()),
  direction: opt(z.string()),
  lag: opt(z.number()),
  recovery_point: opt(z.number()),
  status: opt(z.string()),
  status_details: opt(z.string()),
  paused: opt(z.boolean()),
  local_bucket: opt(referenceSchema),
  remote_bucket: opt(referenceSchema),
  remote: opt(referenceSchema),
  remote_credentials: opt(referenceSchema),
});
export type BucketLink = z.output<typeof bucketLinkSchema>;

const transferSchema = z.looseObject({
  id: opt(z.string()),
  name: opt(z.string()),
  status: opt(z.string()),
  progress: opt(z.number()),
  started: opt(z.number()),
  completed: opt(z.number()),
  direction: opt(z.string()),
  remote: opt(referenceSchema),
});
type Transfer = z.output<typeof transferSchema>;

export const connectionSchema = z.looseObject({
  status: z.string().nullish(),
  remote: z.looseObject({ name: z.string().nullish(), id: z.string().nullish() }).nullish(),
  management_address: z.string().nullish(),
  replication_addresses: z.array(z.string()).nullish(),
  encrypted: z.boolean().nullish(),
  version: z.string().nullish(),
});
const pathSchema = z.looseObject({
  name: opt(z.string()),
  destination: opt(z.string()),
  status: opt(z.string()),
});
export const targetSchema = z.looseObject({
  name: z.string(),
  address: z.string().nullish(),
  status: z.string().nullish(),
  status_details: z.string().nullish(),
});
const credentialSchema = z.looseObject({ name: z.string() });

export type Verdict = "broken" | "paused" | "behind" | "ok";
/** Worst first. */
export const VERDICT_RANK: Record<Verdict, number> = { broken: 0, paused: 1, behind: 2, ok: 3 };
/** A snapshot schedule lags up to one interval by design; half an interval more is the transfer's slack. */
export const BEHIND_RATIO = 1.5;

export interface LinkRow {
  array: string;
  kind: "file system" | "bucket";
  local: string;
  remote: string;
  remoteObject: string;
  status: string;
  details: string;
  /** Milliseconds behind the source; undefined when the array does not say and no transfer completed. */
  lag: number | undefined;
  recoveryPoint: number | undefined;
  /** The replication interval the lag is measured against: the shortest rule of the link's policies. */
  interval: number;
  /** Where the interval comes from: a policy name, or undefined for the --rpo default. */
  intervalFrom: string | undefined;
  ratio: number | undefined;
  verdict: Verdict;
  /** What to check, read from the array's own state (connection, paths, target, credentials). */
  hints: string[];
  /** The transfer in flight, e.g. "home.daily.2026_11_22 42%". */
  inFlight: string | undefined;
}

export interface ArrayReplication {
  rows: LinkRow[];
  /** Live file systems with no replica link and no snapshot policy. */
  unprotected: { array: string; name: string }[];
  /** Links this array is the target of, per source array. */
  inbound: { array: string; from: string; count: number }[];
}

export async function requireReplicationApi(ctx: CommandContext): Promise<void> {
  await requireApi(ctx, "1.9", "The replication API");
}

/** The connected array `remote`, refused before any card when it is not one (naming the connected ones). */
export async function requireConnected(ctx: CommandContext, remote: string): Promise<void> {
  const names = (await readAll(ctx, "/array-connections", connectionSchema)).map((c) => c.remote?.name);
  if (names.includes(remote)) return;
  const known = names.filter((n): n is string => typeof n === "string");
  throw new UserFacingError(
    "NOT_FOUND",
    `${ctx.arrayName} has no connection to an array named "${remote}"${known.length ? ` (it is connected to ${known.join(", ")})` : " (it is connected to none)"}. Nothing was changed.`,
  );
}

/** Every item of a listing, read whole. */
export async function readAll<T>(ctx: CommandContext, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of ctx.array.iterate(path, { schema })) out.push(x);
  return out;
}

/** Newest completed and in-flight transfer per file system, from both transfer listings. */
async function transfersByFileSystem(
  ctx: CommandContext,
): Promise<Map<string, { done?: Transfer; running?: Transfer }>> {
  const [a, b] = await Promise.all([
    readAll(ctx, "/file-system-replica-links/transfer", transferSchema),
    readAll(ctx, "/file-system-snapshots/transfer", transferSchema),
  ]);
  const seen = new Set<string>();
  const out = new Map<string, { done?: Transfer; running?: Transfer }>();
  for (const t of [...a, ...b]) {
    const key = t.id ?? t.name ?? "";
    if (seen.has(key) || !t.name || t.direction === "inbound") continue;
    seen.add(key);
    const fs = t.name.split(".")[0] ?? t.name;
    const cur = out.get(fs) ?? {};
    if (t.status === "completed") {
      if ((t.completed ?? 0) > (cur.done?.completed ?? -1)) cur.done = t;
    } else if (!cur.running || (t.started ?? 0) > (cur.running.started ?? 0)) cur.running = t;
    out.set(fs, cur);
  }
  return out;
}

export function verdictOf(status: string, paused: boolean, ratio: number | undefined): Verdict {
  if (status === "unhealthy") return "broken";
  if (paused || status === "paused") return "paused";
  return ratio !== undefined && ratio > BEHIND_RATIO ? "behind" : "ok";
}

/** Every link of one array with its lag against its interval, and the file systems nothing protects. */
export async function readReplication(
  ctx: CommandContext,
  opts: { defaultInterval: number; unprotected: (ctx: CommandContext) => Promise<string[]> },
): Promise<ArrayReplication> {
  await requireReplicationApi(ctx);
  const now = ctx.now();
  const [fsLinks, bucketLinks, policies, transfers, conns, paths, targets, creds, unprotected] =
    await Promise.all([
      readAll(ctx, "/file-system-replica-links", fileSystemReplicaLinkSchema),
      readAll(ctx, "/bucket-replica-links", bucketLinkSchema),
      listPolicies(ctx),
      transfersByFileSystem(ctx),
      readAll(ctx, "/array-connections", connectionSchema),
      readAll(ctx, "/array-connections/path", pathSchema),
      readAll(ctx, "/targets", targetSchema),
      readAll(ctx, "/object-store-remote-credentials", credentialSchema),
      opts.unprotected(ctx),
    ]);
  const everyOf = new Map(
    policies.map((p) => [p.name, Math.min(...rulesOf(p).map((r) => r.every), Number.POSITIVE_INFINITY)]),
  );
  const remoteHints = (remote: string): string[] => {
    const conn = conns.find((c) => c.remote?.name === remote);
    if (!conn) {
      const target = targets.find((t) => t.name === remote);
      if (!target) return [`${ctx.arrayName} has no array connection or S3 target named ${remote}.`];
      if (target.status === "connected") return [];
      return [
        `S3 target ${remote} (${target.address ?? "?"}) is ${target.status ?? "not connected"}${target.status_details ? `: ${target.status_details}` : ""}; check that it is reachable from the array's data ports.`,
      ];
    }
    const hints: string[] = [];
    if (conn.status !== "connected") {
      hints.push(`The array connection to ${remote} is ${(conn.status ?? "unknown").replace(/_/g, " ")}.`);
    }
    const down = paths.filter((p) => p.name?.startsWith(`${remote}:`) && p.status !== "connected");
    if (down.length > 0) {
      hints.push(
        `Replication path${down.length === 1 ? "" : "s"} ${down.map((p) => `${p.destination ?? p.name} (${p.status ?? "?"})`).join(", ")} not connected: check the replication addresses and the network between the arrays.`,
      );
    }
    return hints;
  };
  const rows: LinkRow[] = [];
  const row = (r: Omit<LinkRow, "ratio" | "verdict" | "array">, paused: boolean) => {
    const ratio = r.lag === undefined ? undefined : r.lag / r.interval;
    const verdict = verdictOf(r.status, paused, ratio);
    if (verdict === "behind") {
      const fsList =
        r.kind === "file system"
          ? ` and its transfers (\`/array fs-link list ${r.local} --array ${ctx.arrayName}\`)`
          : "";
      r.hints.push(
        `Running but ${(ratio ?? 0).toFixed(1)}× its interval behind: if the lag does not shrink within an interval, check the connection (\`/array array-connection list --array ${ctx.arrayName}\`)${fsList}.`,
      );
    }
    rows.push({ ...r, array: ctx.arrayName, ratio, verdict });
  };
  for (const l of fsLinks) {
    if (l.direction === "inbound") continue;
    const local = l.local_file_system?.name ?? "?";
    const remote = l.remote?.name ?? "?";
    const t = transfers.get(local);
    const recoveryPoint = l.recovery_point ?? t?.done?.started;
    const lag = l.lag ?? (recoveryPoint === undefined ? undefined : Math.max(0, now - recoveryPoint));
    const named = (l.policies ?? []).flatMap((p) => (p.name ? [p.name] : []));
    const scheduled = named
      .map((n) => [n, everyOf.get(n) ?? Number.POSITIVE_INFINITY] as const)
      .sort((a, b) => a[1] - b[1])[0];
    const hasInterval = scheduled !== undefined && Number.isFinite(scheduled[1]);
    const hints = l.status === "unhealthy" ? remoteHints(remote) : [];
    if (l.status === "unhealthy")
      hints.push(...detailHints(l.status_details ?? "", l.remote_file_system?.name ?? local, remote));
    if (!hasInterval) {
      hints.push(
        `No snapshot policy on the link schedules its transfers: \`/array policy attach <policy> ${local} --remote ${remote}\`.`,
      );
    }
    const running = t?.running;
    row(
      {
        kind: "file system",
        local,
        remote,
        remoteObject: l.remote_file_system?.name ?? local,
        status: l.status ?? "?",
        details: l.status_details ?? "",
        lag,
        recoveryPoint,
        interval: hasInterval ? scheduled[1] : opts.defaultInterval,
        intervalFrom: hasInterval ? scheduled[0] : undefined,
        hints,
        inFlight: running?.name ? `${running.name} ${Math.round((running.progress ?? 0) * 100)}%` : undefined,
      },
      false,
    );
  }
  for (const l of bucketLinks) {
    if (l.direction === "inbound") continue;
    const local = l.local_bucket?.name ?? "?";
    const remote = l.remote?.name ?? "?";
    const cred = l.remote_credentials?.name;
    const paused = l.paused === true || l.status === "paused";
    const hints = paused || l.status === "unhealthy" ? remoteHints(remote) : [];
    const known =
      l.status === "unhealthy"
        ? detailHints(l.status_details ?? "", l.remote_bucket?.name ?? local, remote)
        : [];
    hints.push(...known);
    if ((paused || l.status === "unhealthy") && cred && !creds.some((c) => c.name === cred)) {
      hints.push(`Its remote credentials ${cred} no longer exist on ${ctx.arrayName}.`);
    } else if (l.status === "unhealthy" && cred && known.length === 0) {
      hints.push(`Check that remote credentials ${cred} still hold a valid access key on ${remote}.`);
    }
    const recoveryPoint = l.recovery_point;
    row(
      {
        kind: "bucket",
        local,
        remote,
        remoteObject: l.remote_bucket?.name ?? local,
        status: l.status ?? (paused ? "paused" : "?"),
        details: l.status_details ?? "",
        lag: l.lag ?? (recoveryPoint === undefined ? undefined : Math.max(0, now - recoveryPoint)),
        recoveryPoint,
        interval: opts.defaultInterval,
        intervalFrom: undefined,
        hints,
        inFlight: undefined,
      },
      paused,
    );
  }
  const inbound = new Map<string, number>();
  for (const l of [...fsLinks, ...bucketLinks]) {
    if (l.direction === "inbound")
      inbound.set(l.remote?.name ?? "?", (inbound.get(l.remote?.name ?? "?") ?? 0) + 1);
  }
  return {
    rows,
    unprotected: unprotected.map((name) => ({ array: ctx.arrayName, name })),
    inbound: [...inbound].map(([from, count]) => ({ array: ctx.arrayName, from, count })),
  };
}

export function sortWorstFirst(rows: LinkRow[]): LinkRow[] {
  return [...rows].sort(
    (a, b) =>
      VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
      (b.ratio ?? Number.POSITIVE_INFINITY) - (a.ratio ?? Number.POSITIVE_INFINITY) ||
      a.array.localeCompare(b.array) ||
      a.local.localeCompare(b.local),
  );
}
