/**
 * Turning what was read into ranked findings. Every finding gets a score on one scale, "how far from normal":
 * for a metric with history, the distance of the window from its baseline (same hours of previous days) in
 * robust standard deviations; for facts without history (alerts, lagging links, a full array, a client that
 * dominates), a fixed place on the same scale chosen so that 3 means "worth a look". Findings at 3 or more
 * are reported; below that the array is normal. Documented in docs/console.md.
 */
import type { PerfSample } from "../perf.js";
import { iopsOf } from "../perf.js";
import { DIAG_PROTOCOLS, type DiagnoseData, type DiagProtocol, type Load } from "./collect.js";
import { QOS_HELD, type QosHold } from "./qos.js";

const HOUR = 3_600_000;
/** The smallest score reported. */
export const ABNORMAL = 3;
/** A change smaller than this share of the baseline is never abnormal, however steady the baseline. */
const MIN_RELATIVE_CHANGE = 0.25;
/** Floor of the baseline's spread, as a share of its level: day-to-day noise a quiet array always has. */
const MIN_RELATIVE_SPREAD = 0.05;
/** A client doing this share of the NFS operations or more (nearly a third) dominates the array. */
const DOMINANT_SHARE = 0.3;

export type MetricKind = "latency" | "iops" | "bandwidth";

export interface Baseline {
  /** Median of the previous days' averages over the same hours. */
  level: number;
  /** Robust spread of those averages (at least MIN_RELATIVE_SPREAD of the level). */
  spread: number;
  days: number;
}

export interface MetricCheck {
  protocol: DiagProtocol;
  kind: MetricKind;
  now: number;
  baseline?: Baseline;
  /** Signed distance from the baseline in spreads; 0 without a baseline. */
  z: number;
}

export type Finding =
  | { kind: "metric"; score: number; check: MetricCheck; cause?: ClientShare }
  | { kind: "client"; score: number; client: ClientShare }
  | {
      kind: "alert";
      score: number;
      severity: string;
      /** The number \`alert list\` shows and \`alert show\` takes. */
      index: number;
      code: number;
      subject: string;
      component: string;
      created: number;
      inWindow: boolean;
    }
  | { kind: "link"; score: number; link: DiagnoseData["links"][number] }
  | { kind: "capacity"; score: number; ratio: number }
  | { kind: "qos"; score: number; hold: QosHold };

/**
 * A client's load against the total it belongs to: array clients are NFS clients, and the array has no client
 * history, so the whole is NFS read at the same moment as the clients (collect.ts), with NFS's latency then;
 * the clients' own sum when the array gave no NFS sample.
 */
export type ClientShare = Load & { share: number; of: number; basis: "nfs" | "clients"; ofMs?: number };

export interface Diagnosis {
  data: DiagnoseData;
  checks: MetricCheck[];
  findings: Finding[];
}

const pick: Record<MetricKind, (s: PerfSample) => number | undefined> = {
  latency: (s) => s.opMs,
  iops: iopsOf,
  bandwidth: (s) => s.bw,
};

/**
 * The window's figure: rates are the mean of the samples; latency is weighted by each sample's operations, as
 * the array weights its clients' latencies, so a busy minute counts for what it carried.
 */
export function windowMean(samples: readonly PerfSample[], kind: MetricKind): number | undefined {
  let sum = 0;
  let n = 0;
  for (const s of samples) {
    const v = pick[kind](s);
    const w = kind === "latency" ? iopsOf(s) : 1;
    if (v !== undefined && Number.isFinite(v) && w > 0) {
      sum += v * w;
      n += w;
    }
  }
  return n > 0 ? sum / n : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

export function baselineOf(values: number[]): Baseline | undefined {
  if (values.length === 0) return undefined;
  const level = median(values);
  const mad = 1.4826 * median(values.map((v) => Math.abs(v - level)));
  return { level, spread: Math.max(mad, MIN_RELATIVE_SPREAD * Math.abs(level), 1e-9), days: values.length };
}

function check(protocol: DiagProtocol, kind: MetricKind, data: DiagnoseData): MetricCheck | undefined {
  const p = data.perf[protocol];
  const now = p ? windowMean(p.window, kind) : undefined;
  if (!p || now === undefined) return undefined;
  const daily = p.days.flatMap((d) => {
    const v = windowMean(d, kind);
    return v === undefined ? [] : [v];
  });
  const baseline = baselineOf(daily);
  const z = baseline ? (now - baseline.level) / baseline.spread : 0;
  return { protocol, kind, now, z, ...(baseline ? { baseline } : {}) };
}

/** How abnormal a check is: latency only counts upwards; load counts both ways (a drop can mean an outage). */
export function scoreOf(c: MetricCheck): number {
  if (!c.baseline || c.baseline.level <= 0) return 0;
  const rel = (c.now - c.baseline.level) / c.baseline.level;
  if (Math.abs(rel) < MIN_RELATIVE_CHANGE) return 0;
  if (c.kind === "latency" && rel < 0) return 0;
  return Math.abs(c.z);
}

function dominantClient(
  clients: readonly Load[] | undefined,
  nfs: PerfSample | undefined,
): ClientShare | undefined {
  if (!clients || clients.length < 2) return undefined;
  const sum = clients.reduce((a, c) => a + c.ops, 0);
  const top = [...clients].sort((a, b) => b.ops - a.ops)[0];
  const nfsOps = nfs ? iopsOf(nfs) : 0;
  const basis = nfsOps > 0 ? "nfs" : "clients";
  // Read up to a sample period apart (collect.ts): never more than the whole.
  const of = basis === "nfs" ? Math.max(nfsOps, top?.ops ?? 0) : sum;
  if (!top || of <= 0) return undefined;
  const share = top.ops / of;
  const ofMs = basis === "nfs" ? nfs?.opMs : undefined;
  return share >= DOMINANT_SHARE
    ? { ...top, share, of, basis, ...(ofMs === undefined ? {} : { ofMs }) }
    : undefined;
}

export function analyze(data: DiagnoseData): Diagnosis {
  const checks = DIAG_PROTOCOLS.flatMap((p) =>
    (["latency", "iops", "bandwidth"] as const).flatMap((k) => {
      const c = check(p, k, data);
      return c ? [c] : [];
    }),
  );
  const findings: Finding[] = [];
  for (const c of checks) {
    const score = scoreOf(c);
    if (score >= ABNORMAL) findings.push({ kind: "metric", score, check: c });
  }
  // "All protocols" is the mix of the protocols: when one protocol is abnormal in the same way, it is the
  // finding that explains the mix, so the mix ranks right below it, however steadier its own history.
  for (const f of findings) {
    if (f.kind !== "metric" || f.check.protocol !== "all") continue;
    const own = findings.filter(
      (g) => g.kind === "metric" && g.check.kind === f.check.kind && g.check.protocol !== "all",
    );
    const top = Math.max(...own.map((g) => g.score));
    if (own.length > 0 && f.score >= top) f.score = top - 1e-6;
  }
  findings.sort((a, b) => b.score - a.score);
  const dominant = dominantClient(data.clients, data.clientsNfs);
  if (dominant) {
    // A client that dominates is the likely cause of the worst latency finding: it is named there and
    // listed right after it, ahead of findings that are further from normal but not explained by it.
    // Array clients are NFS clients: NFS latency is the symptom they explain, all protocols only without it.
    const latency = (p: DiagProtocol) =>
      findings.find((f) => f.kind === "metric" && f.check.kind === "latency" && f.check.protocol === p);
    const symptom = latency("nfs") ?? latency("all");
    if (symptom?.kind === "metric") {
      symptom.cause = dominant;
      findings.splice(findings.indexOf(symptom) + 1, 0, {
        kind: "client",
        score: symptom.score,
        client: dominant,
      });
    } else {
      findings.push({
        kind: "client",
        score: ABNORMAL + 10 * (dominant.share - DOMINANT_SHARE),
        client: dominant,
      });
    }
  }
  const rest: Finding[] = [];
  for (const a of data.alerts.items) {
    if (a.state === "closed" || a.severity === "info") continue;
    const inWindow = a.created >= data.start;
    const score = (a.severity === "critical" ? 6 : 3.5) + (inWindow ? 2 : 0);
    rest.push({
      kind: "alert",
      score,
      severity: a.severity,
      index: a.index,
      code: a.code,
      subject: a.subject,
      component: a.component,
      created: a.created,
      inWindow,
    });
  }
  // Behind, paused or broken as `replication status` says (collect.ts): one definition for both answers.
  for (const link of data.links) {
    if (link.verdict === "ok") continue;
    rest.push({ kind: "link", score: Math.min(9, ABNORMAL + Math.log2(1 + link.lag / HOUR)), link });
  }
  if (data.capacity && data.capacity.total > 0) {
    const ratio = data.capacity.used / data.capacity.total;
    if (ratio >= 0.8) rest.push({ kind: "capacity", score: ABNORMAL + (ratio - 0.8) * 40, ratio });
  }
  // A workload at its QoS limit is slowed by the array on purpose: a cause worth a look, above a warning alert.
  for (const hold of data.qos ?? [])
    if (hold.ratio >= QOS_HELD)
      rest.push({ kind: "qos", score: ABNORMAL + 1 + Math.min(1, hold.ratio - QOS_HELD), hold });
  // Facts without history never outrank a measured deviation of the same size: merged by score, stable.
  const merged = [...findings];
  for (const f of rest.sort((a, b) => b.score - a.score)) {
    const at = merged.findIndex((m) => m.score < f.score && m.kind !== "client");
    if (at === -1) merged.push(f);
    else merged.splice(at, 0, f);
  }
  return { data, checks, findings: merged };
}
