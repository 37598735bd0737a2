/**
 * What `/array diagnose` reads from one array: the window and the same hours of the previous days for every
 * protocol, clients now, the busiest file systems and buckets (and, on 1.12, their hot users and groups),
 * replica links, open alerts (from the alert engine when it runs) and capacity. Extras an array refuses
 * (an older REST version) are left out, never fatal.
 */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { eq } from "../../src/flashblade/filter.js";
import { arrayPerformanceSchema } from "../../src/flashblade/schemas.js";
import { type PerfSample, resolutionFor, toSample } from "../perf.js";
import { readReplication, type Verdict } from "../replication/read.js";
import { DEFAULT_RPO } from "../replication/status.js";
import { type QosHold, readQos } from "./qos.js";

/** An alert as the engine's port gives it; derived from the context so commands/ never import src/alerts. */
export type AlertSnapshot = Awaited<ReturnType<NonNullable<CommandContext["alerts"]>["alertsSince"]>>[number];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SAMPLE_PERIOD = 30_000;
export const DIAG_PROTOCOLS = ["all", "nfs", "smb", "s3", "http"] as const;
export type DiagProtocol = (typeof DIAG_PROTOCOLS)[number];
/** Previous days whose same hours make the baseline. */
export const BASELINE_DAYS = 7;

export interface Load {
  name: string;
  ops: number;
  bw: number;
  /** Weighted latency per operation, ms. */
  ms?: number;
  /** Latency per read and per write, ms: the figures `perf clients` shows. */
  readMs?: number;
  writeMs?: number;
}

/**
 * The clients and the NFS figure they make up, read at the same moment: clients have no history on the array,
 * so a client's share and latency are set against NFS now, never against the window's mean.
 */
export interface ClientsNow {
  clients: Load[];
  /** NFS at the time of the clients' sample, when the array gave one. */
  nfs?: PerfSample;
  time?: number;
}

/**
 * A replica link as `replication status` judges it: the same reading (readReplication) and the same verdict
 * against the link's interval, so diagnose never calls "behind" a link that status calls ok, or the reverse.
 */
export interface LinkLag {
  kind: "file system" | "bucket";
  name: string;
  remote?: string;
  lag: number;
  status: string;
  details?: string;
  verdict: Verdict;
  /** The interval the lag is measured against, and the policy it comes from (none: the default RPO). */
  interval: number;
  intervalFrom?: string;
  /** lag ÷ interval, when the lag is known. */
  ratio?: number;
}

export interface DiagnoseData {
  array: string;
  start: number;
  end: number;
  resolution: number;
  /** Per protocol: the window's samples and, per previous day, that day's samples at the same hours. */
  perf: Partial<Record<DiagProtocol, { window: PerfSample[]; days: PerfSample[][] }>>;
  clients?: Load[];
  /** NFS read with the clients (same moment), what a client's share is of. */
  clientsNfs?: PerfSample;
  fileSystems?: Load[];
  buckets?: Load[];
  /** Hot users and groups of the busiest file system (REST 1.12). */
  hot?: { fileSystem: string; users: Load[]; groups: Load[] };
  links: LinkLag[];
  alerts: { source: "engine" | "array"; items: AlertSnapshot[] };
  capacity?: { total: number; used: number };
  /** QoS-limited file systems and buckets against their limits (REST 2.17+), nearest first. */
  qos?: QosHold[];
}

const opt = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

function num(o: Record<string, unknown>, k: string): number {
  const v = o[k];
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** A per-object performance row as a load: operations, bytes per second and weighted latency. */
export function loadOf(name: string, row: Record<string, unknown>): Load {
  const s = toSample(row as never);
  const ops = s.reads + s.writes + s.others;
  return {
    name,
    ops,
    bw: s.bw ?? num(row, "read_bytes_per_sec") + num(row, "write_bytes_per_sec"),
    ...(s.opMs === undefined ? {} : { ms: s.opMs }),
    ...(s.reads > 0 ? { readMs: num(row, "usec_per_read_op") / 1000 } : {}),
    ...(s.writes > 0 ? { writeMs: num(row, "usec_per_write_op") / 1000 } : {}),
  };
}

const byOps = (a: Load, b: Load) => b.ops - a.ops;

async function series(ctx: CommandContext, protocol: string, start: number, end: number, resolution: number) {
  const page = await ctx.array.get("/arrays/performance", {
    query: { start_time: start, end_time: end, resolution, protocol },
    schema: arrayPerformanceSchema,
  });
  return page.items
    .map(toSample)
    .filter((s) => s.time !== undefined)
    .sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
}

async function loads(ctx: CommandContext, path: string, query: Record<string, string | number> = {}) {
  const page = await ctx.array.get<Record<string, unknown>>(path, { query: { ...query } });
  return page.items.map((r) => loadOf(String(r["name"] ?? "?"), r)).sort(byOps);
}

/**
 * The clients, and NFS now; NFS is kept only when read within one sample period (30 s, an array's finest
 * history) of the clients, else a share would set two moments against each other.
 */
async function clientsNow(ctx: CommandContext): Promise<ClientsNow> {
  const [clients, nfs] = await Promise.all([
    ctx.array.get<Record<string, unknown>>("/arrays/clients/performance", { query: { limit: 1000 } }),
    opt(ctx.array.arrays.performance("nfs").then(toSample)),
  ]);
  const time = clients.items.map((r) => r["time"]).find((t) => typeof t === "number");
  const loads = clients.items.map((r) => loadOf(String(r["name"] ?? "?"), r)).sort(byOps);
  const same =
    nfs && (typeof time !== "number" || nfs.time === undefined || Math.abs(nfs.time - time) <= SAMPLE_PERIOD);
  return { clients: loads, ...(same ? { nfs } : {}), ...(typeof time === "number" ? { time } : {}) };
}

async function links(ctx: CommandContext): Promise<LinkLag[]> {
  if (!(await ctx.array.supports("1.9"))) return [];
  const { rows } = await readReplication(ctx, { defaultInterval: DEFAULT_RPO, unprotected: async () => [] });
  return rows.map((r) => ({
    kind: r.kind,
    name: r.local,
    lag: r.lag ?? 0,
    status: r.status,
    verdict: r.verdict,
    interval: r.interval,
    ...(r.remote !== "?" ? { remote: r.remote } : {}),
    ...(r.details ? { details: r.details } : {}),
    ...(r.intervalFrom ? { intervalFrom: r.intervalFrom } : {}),
    ...(r.ratio !== undefined ? { ratio: r.ratio } : {}),
  }));
}

async function alerts(ctx: CommandContext, since: number): Promise<DiagnoseData["alerts"]> {
  if (ctx.alerts) {
    const items = await opt(ctx.alerts.alertsSince(ctx.arrayName, since));
    if (items) return { source: "engine", items };
  }
  // Without the engine (the console, or while it starts) the array's own list of open alerts stands in.
  if (!(await ctx.array.supports("1.2"))) return { source: "array", items: [] };
  const page = await opt(ctx.array.alerts.list({ filter: eq("state", "open") }));
  const items: AlertSnapshot[] = (page?.items ?? []).map((a) => ({
    name: a.name,
    index: a.index ?? 0,
    code: a.code ?? 0,
    severity: a.severity === "critical" || a.severity === "warning" ? a.severity : "info",
    component: a.component ?? "",
    state: a.state ?? "open",
    flagged: a.flagged ?? false,
    created: a.created ?? 0,
    updated: a.updated ?? 0,
    subject: a.subject ?? "",
    description: a.description ?? "",
  }));
  return { source: "array", items };
}

export async function collect(ctx: CommandContext, windowMs: number): Promise<DiagnoseData> {
  const current = await ctx.array.arrays.performance("all");
  const end = current.time ?? ctx.now();
  const start = end - windowMs;
  const resolution = Math.max(5 * MINUTE, resolutionFor(windowMs));
  const perfEntries = DIAG_PROTOCOLS.map(async (p) => {
    const parts = await Promise.all(
      Array.from({ length: BASELINE_DAYS + 1 }, (_, d) =>
        series(ctx, p, start - d * DAY, end - d * DAY, resolution).catch((err: unknown) => {
          // The window itself must be read; a missing old day only thins the baseline.
          if (d === 0) throw err;
          return [];
        }),
      ),
    );
    return [p, { window: parts[0] ?? [], days: parts.slice(1).filter((x) => x.length > 0) }] as const;
  });
  const v12 = await ctx.array.supports("1.12");
  const [perf, clients, fileSystems, buckets, linkList, alertList, space] = await Promise.all([
    Promise.all(perfEntries.map((e) => opt(e))),
    opt(clientsNow(ctx)),
    opt(loads(ctx, "/file-systems/performance")),
    opt(loads(ctx, "/buckets/performance")),
    opt(links(ctx)),
    alerts(ctx, start),
    opt(ctx.array.arrays.space("array")),
  ]);
  const busiest = fileSystems?.[0]?.name;
  let hot: DiagnoseData["hot"];
  if (v12 && busiest) {
    const q = { file_system_names: busiest };
    const [users, groups] = await Promise.all([
      opt(loads(ctx, "/file-systems/users/performance", q)),
      opt(loads(ctx, "/file-systems/groups/performance", q)),
    ]);
    if (users || groups) hot = { fileSystem: busiest, users: users ?? [], groups: groups ?? [] };
  }
  const qos = await opt(readQos(ctx, fileSystems, buckets));
  const total = space?.capacity;
  const used = space?.space?.total_physical;
  return {
    array: ctx.arrayName,
    start,
    end,
    resolution,
    perf: Object.fromEntries(perf.flatMap((e) => (e ? [e] : []))),
    ...(clients ? { clients: clients.clients } : {}),
    ...(clients?.nfs ? { clientsNfs: clients.nfs } : {}),
    ...(fileSystems ? { fileSystems } : {}),
    ...(buckets ? { buckets } : {}),
    ...(hot ? { hot } : {}),
    links: linkList ?? [],
    alerts: alertList,
    ...(total && used !== undefined ? { capacity: { total, used } } : {}),
    ...(qos?.length ? { qos } : {}),
  };
}
