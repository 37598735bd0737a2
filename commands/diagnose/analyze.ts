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
  | { kind: "capacity"; score: number; ratio: number };

/**
 * A client's load against the total it belongs to: array clients are NFS clients, so the whole is the NFS
 * IOPS the evidence table shows for the same window (the clients' own sum when the array gave no NFS series).
 */
export type ClientShare = Load & { share: number; of: number; basis: "nfs" | "clients" };

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

function mean(samples: readonly PerfSample[], f: (s: PerfSample) => number | undefined): number | undefined {
  let sum = 0;
  let n = 0;
  for (const s of samples) {
    const v = f(s);
    if (v !== undefined && Number.isFinite(v)) {
      sum += v;
      n++;
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
  const now = p ? mean(p.window, pick[kind]) : undefined;
  if (!p || now === undefined) return undefined;
  const daily = p.days.flatMap((d) => {
    const v = mean(d, pick[kind]);
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
  nfsOps: number | undefined,
): ClientShare | undefined {
  if (!clients || clients.length < 2) return undefined;
  const sum = clients.reduce((a, c) => a + c.ops, 0);
  const top = [...clients].sort((a, b) => b.ops - a.ops)[0];
  const basis = nfsOps !== undefined && nfsOps > 0 ? "nfs" : "clients";
  // A sample taken a moment later can exceed the window's mean: never more than the whole.
  const of = basis === "nfs" ? Math.max(nfsOps ?? 0, top?.ops ?? 0) : sum;
  if (!top || of <= 0) return undefined;
  const share = top.ops / of;
  return share >= DOMINANT_SHARE ? { ...top, share, of, basis } : undefined;
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
  findings.sort((a, b) => b.score - a.score);
  const nfsOps = checks.find((c) => c.protocol === "nfs" && c.kind === "iops")?.now;
  const dominant = dominantClient(data.clients, nfsOps);
  if (dominant) {
    // A client that dominates is the likely cause of the worst latency finding: it is named there and
    // listed right after it, ahead of findings that are further from normal but not explained by it.
    const symptom = findings.find((f) => f.kind === "metric" && f.check.kind === "latency");
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
  // Facts without history never outrank a measured deviation of the same size: merged by score, stable.
  const merged = [...findings];
  for (const f of rest.sort((a, b) => b.score - a.score)) {
    const at = merged.findIndex((m) => m.score < f.score && m.kind !== "client");
    if (at === -1) merged.push(f);
    else merged.splice(at, 0, f);
  }
  return { data, checks, findings: merged };
}
