/** Words for a diagnosis: the ranked findings first, then the evidence (protocol table, clients, hot spots). */

import { sizeIn, unitOf } from "../../src/core/presentation/column-units.js";
import { formatRelative } from "../../src/core/presentation/format-time.js";
import { type Block, joinRich, type Rich, rich, unescapeText } from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatPercent,
} from "../../src/core/words/units.js";
import { type ClientShare, type Diagnosis, type Finding, type MetricCheck, scoreOf } from "./analyze.js";
import type { DiagProtocol, Load } from "./collect.js";

const PROTOCOL_NAMES: Record<DiagProtocol, string> = {
  all: "All protocols",
  nfs: "NFS",
  smb: "SMB",
  s3: "S3",
  http: "HTTP",
};

/** A figure as findings and the table say it; a bandwidth in `unit` (a power of 1024) when the table's column has one. */
export function valueText(kind: MetricCheck["kind"], v: number | undefined, unit?: number): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  if (kind === "latency") return formatLatencyMs(v);
  if (kind === "iops") return `${formatCount(Math.round(v))} ops/s`;
  return `${unit === undefined ? formatBytes(v) : sizeIn(v, unit)}/s`;
}

const KIND_NAMES = { latency: "latency", iops: "IOPS", bandwidth: "bandwidth" } as const;

/** "3.3 ms per read, 2.33 ms per write": the figures and the format `perf clients` shows for the client. */
function perKind(c: Load): string {
  const parts = [
    c.readMs === undefined ? undefined : `${formatLatencyMs(c.readMs)} per read`,
    c.writeMs === undefined ? undefined : `${formatLatencyMs(c.writeMs)} per write`,
  ].filter((x) => x !== undefined);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/**
 * A client against the NFS it is part of, both now (clients have no history): its share of the operations and
 * its latency per operation beside NFS's, so the two can be checked against each other.
 */
function clientText(c: ClientShare): Rich {
  const whole = c.basis === "nfs" ? "NFS operations" : "client operations";
  const latency =
    c.ms === undefined
      ? ""
      : `, at ${formatLatencyMs(c.ms)} per operation${perKind(c)}${c.ofMs === undefined ? "" : ` against ${formatLatencyMs(c.ofMs)} for all of NFS`}`;
  return rich`client \`${c.name}\` does ${formatPercent(c.share)} of ${whole} now (${formatCount(Math.round(c.ops))} of ${formatCount(Math.round(c.of))} ops/s)${latency}`;
}

/** One finding as a line: what, how far from usual, and the likely cause when known. */
export function findingText(f: Finding, now: number): Rich {
  switch (f.kind) {
    case "metric": {
      const c = f.check;
      const usual = c.baseline?.level;
      const ratio = usual && usual > 0 ? c.now / usual : undefined;
      const how =
        ratio === undefined
          ? ""
          : ratio >= 1
            ? `${ratio.toFixed(1)}× usual`
            : `${Math.round((1 - ratio) * 100)} % below usual`;
      const line = rich`*${PROTOCOL_NAMES[c.protocol]} ${KIND_NAMES[c.kind]} ${valueText(c.kind, c.now)}*, usual ${valueText(c.kind, usual)} at these hours (${how}; ${Math.round(Math.abs(c.z))} σ from the previous ${c.baseline?.days ?? 0} days)`;
      return f.cause ? joinRich([line, rich`. Likely cause: ${clientText(f.cause)}.`]) : line;
    }
    case "client":
      return rich`*One client dominates*: ${clientText(f.client)}.`;
    case "alert":
      // The index is the number `alert list` shows and `alert show` takes; the code only names the kind.
      return rich`*${f.severity} alert ${f.index}* (code ${f.code}) open: ${f.subject || "(no subject)"}${f.component ? ` (${f.component})` : ""}, raised ${f.inWindow ? "in this window" : formatRelative(f.created, now)}.`;
    case "link": {
      // The words of `replication status`: its verdict, and the lag against the same interval.
      const l = f.link;
      const against =
        l.ratio === undefined
          ? ""
          : `, ${l.ratio.toFixed(1)}× its ${formatDuration(l.interval)} interval (${l.intervalFrom ? `policy ${l.intervalFrom}` : "no policy"})`;
      return rich`*Replication ${l.verdict}*: ${l.kind} ${l.name}${l.remote ? ` → ${l.remote}` : ""} lags ${formatDuration(l.lag)}${against} (${l.status}${l.details ? `: ${l.details}` : ""}).`;
    }
    case "capacity":
      return rich`*Array ${formatPercent(f.ratio)} full*: above 80 %, where performance and rebuild headroom suffer. See \`/array space forecast\`.`;
    case "qos": {
      const q = f.hold;
      const limit = q.by === "bandwidth" ? `${formatBytes(q.limit)}/s` : `${formatCount(q.limit)} ops/s`;
      return rich`*${q.kind} ${q.member} is held at its QoS limit* (${q.policy}: ${limit}), running at ${formatPercent(q.ratio)} of it: the array slows it on purpose; raise the limit or move it to another QoS policy if that is not intended.`;
    }
  }
}

/** The most abnormal finding in plain words, or "nothing abnormal": the line per array under --array all. */
export function firstOf(d: Diagnosis): string {
  const first = d.findings[0];
  if (!first) return "nothing abnormal";
  return unescapeText(findingText(first, d.data.end).markup.replace(/\*/g, ""))
    .replace(/\. Likely cause.*$/, "")
    .replace(/ at these hours.*$/, "");
}

/** The headline of one array's diagnosis. */
export function summaryOf(d: Diagnosis): string {
  const first = d.findings[0];
  if (!first) return d.checks.length > 0 ? "nothing abnormal" : "no performance history to compare";
  const what = unescapeText(findingText(first, d.data.end).markup.replace(/\*/g, ""))
    .replace(/\. Likely cause.*$/, "")
    .replace(/ at these hours.*$/, "");
  return `${d.findings.length} finding${d.findings.length === 1 ? "" : "s"}; first: ${what}`;
}

function loadsLine(title: string, loads: readonly Load[] | undefined, strip = ""): Rich | undefined {
  // An object doing nothing (a file system created a minute ago, with no data) is never among the busiest.
  const busy = loads?.filter((l) => l.ops > 0) ?? [];
  if (busy.length === 0) return undefined;
  const items = busy
    .slice(0, 3)
    .map(
      (l) =>
        `${l.name.startsWith(strip) ? l.name.slice(strip.length) : l.name} ${formatCount(Math.round(l.ops))} ops/s`,
    );
  return rich`${title}: ${items.join(", ")}.`;
}

export function evidenceBlocks(d: Diagnosis, window: string): Block[] {
  // The bandwidth column in one unit, its largest figure's (column-units.ts), usual levels included.
  const widest = d.checks
    .filter((c) => c.kind === "bandwidth")
    .reduce((m, c) => Math.max(m, c.now, c.baseline?.level ?? 0), 0);
  const unit = (k: MetricCheck["kind"]) => (k === "bandwidth" ? unitOf(widest) : undefined);
  const rows = (Object.keys(PROTOCOL_NAMES) as DiagProtocol[]).flatMap((p) => {
    const of = (k: MetricCheck["kind"]) => d.checks.find((c) => c.protocol === p && c.kind === k);
    const cell = (k: MetricCheck["kind"]) => {
      const c = of(k);
      if (!c) return "–";
      const mark = scoreOf(c) >= 3 ? " ⚠" : "";
      return `${valueText(k, c.now, unit(k))} (usual ${valueText(k, c.baseline?.level, unit(k))})${mark}`;
    };
    if (!of("iops")) return [];
    return [
      {
        protocol: PROTOCOL_NAMES[p],
        latency: cell("latency"),
        iops: cell("iops"),
        bandwidth: cell("bandwidth"),
      },
    ];
  });
  // Structured results: each measure now and its usual level (ms, operations/s, bytes/s).
  const values = rows.map((r) => {
    const p = (Object.keys(PROTOCOL_NAMES) as DiagProtocol[]).find((k) => PROTOCOL_NAMES[k] === r.protocol);
    const of = (k: MetricCheck["kind"]) => d.checks.find((c) => c.protocol === p && c.kind === k);
    const raw = (k: MetricCheck["kind"]) => ({
      [k]: of(k)?.now ?? null,
      [`${k}_usual`]: of(k)?.baseline?.level ?? null,
    });
    return { protocol: r.protocol, ...raw("latency"), ...raw("iops"), ...raw("bandwidth") };
  });
  const table = truncatedTable(
    [
      { key: "protocol", label: "Protocol" },
      { key: "latency", label: "Latency" },
      { key: "iops", label: "IOPS" },
      { key: "bandwidth", label: "Bandwidth" },
    ],
    rows,
    { filename: "diagnose.csv", title: `Last ${window} against the same hours of previous days`, values },
  );
  const data = d.data;
  const slowest = [...(data.clients ?? [])]
    .filter((c) => c.ms !== undefined)
    .sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0));
  const lines = [
    loadsLine("Top clients by operations", data.clients),
    slowest.length
      ? // Per operation, as the findings weigh it; `perf clients` shows its parts (per read, per write).
        rich`Slowest clients per operation: ${slowest
          .slice(0, 3)
          .map((c) => `${c.name} ${formatLatencyMs(c.ms ?? 0)}`)
          .join(", ")}.`
      : undefined,
    loadsLine("Busiest file systems", data.fileSystems),
    loadsLine("Busiest buckets", data.buckets),
    data.hot
      ? loadsLine(`Hot users of ${data.hot.fileSystem}`, data.hot.users, `${data.hot.fileSystem}/`)
      : undefined,
    data.hot
      ? loadsLine(`Hot groups of ${data.hot.fileSystem}`, data.hot.groups, `${data.hot.fileSystem}/`)
      : undefined,
  ].filter((x): x is Rich => x !== undefined);
  return [table.block, ...lines.map((text) => ({ type: "context" as const, text }))];
}
