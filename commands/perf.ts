/**
 * `/array perf`: array-wide performance. Without --last, the current rates and latencies (one row per array);
 * with --last, the array's own history over that window: avg/p95/max per array and, for one array, a PNG
 * chart of IOPS and latency ("is it the array, and since when"). Hand-written because it sums the window into
 * avg/p95/max and draws a chart, where the catalogue's `perf <protocol>` nouns list the samples as sent.
 */
import { z } from "zod";
import { defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import { summarize } from "../src/core/presentation/chart/stats.js";
import { formatTimestamp } from "../src/core/presentation/format-time.js";
import { type Block, message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { enumWire, windowWire, wired } from "../src/core/words/arg-wire.js";
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatLatencyMs,
  parseDuration,
} from "../src/core/words/units.js";
import { arrayPerformanceSchema } from "../src/flashblade/schemas.js";
import type { ArrayPerformance } from "../src/flashblade/types.js";
import { perfChart } from "./perf-chart.js";
import { columnsOf } from "./shared/listing.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const PROTOCOLS = ["all", "nfs", "smb", "http", "s3"] as const;
const MIN_WINDOW = 5 * MINUTE;
const MAX_WINDOW = 30 * DAY;
/** Sample spacings asked of the array, finest first; the first that keeps the series short enough wins. */
const RESOLUTIONS = [30 * SECOND, 5 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR, DAY];
/** About one sample per two pixels of an 800-pixel chart, and a response small enough to parse at once. */
export const MAX_POINTS = 300;

/** The coarsest spacing needed to cover `windowMs` in at most MAX_POINTS samples. */
export function resolutionFor(windowMs: number): number {
  return RESOLUTIONS.find((r) => windowMs / r <= MAX_POINTS) ?? DAY;
}

const WINDOW_HELP = "use a duration from 5m to 30d, such as 1h, 24h or 7d";

function timeWindow() {
  return wired(
    z.union([z.number(), z.string()]).transform((v, ctx) => {
      const ms = typeof v === "number" ? v : parseDuration(v);
      if (ms === undefined || ms < MIN_WINDOW || ms > MAX_WINDOW) {
        ctx.addIssue({
          code: "custom",
          message: `\`${String(v)}\` is not a window I can chart; ${WINDOW_HELP}`,
        });
        return z.NEVER;
      }
      return {
        ms,
        text: typeof v === "number" ? formatDuration(v).replace(/ /g, "") : v.trim().toLowerCase(),
      };
    }),
    windowWire("([5-9]|[1-5][0-9])m|([1-9]|1[0-9]|2[0-3])h|([1-9]|[12][0-9]|30)d", ["1h", "24h", "7d"]),
  );
}

/** One sample, in the units people read: operations per second, bytes per second, milliseconds. */
export interface PerfSample {
  time?: number;
  reads: number;
  writes: number;
  others: number;
  readBw?: number;
  writeBw?: number;
  /** Read plus write bytes per second; before REST 1.3 only the total is unambiguous. */
  bw?: number;
  readMs?: number;
  writeMs?: number;
  /** Average latency over every operation, weighted by how many of each kind ran. */
  opMs?: number;
}

export interface PerfHistory {
  array: string;
  start: number;
  end: number;
  resolution: number;
  samples: PerfSample[];
}

export interface PerfResult {
  now: { array: string; sample: PerfSample }[];
  history: PerfHistory[];
}

function num(p: ArrayPerformance, key: string): number | undefined {
  const v = (p as Record<string, unknown>)[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

const msOf = (usec: number | undefined) => (usec === undefined ? undefined : usec / 1000);

export function toSample(p: ArrayPerformance): PerfSample {
  const reads = p.reads_per_sec ?? 0;
  const writes = p.writes_per_sec ?? 0;
  const others = p.others_per_sec ?? 0;
  const ops = reads + writes + others;
  const weighted =
    reads * (p.usec_per_read_op ?? 0) +
    writes * (p.usec_per_write_op ?? 0) +
    others * (p.usec_per_other_op ?? 0);
  // input/output name the directions inconsistently across sources, but their sum is the total either way.
  const input = num(p, "input_per_sec");
  const output = num(p, "output_per_sec");
  const bw =
    p.read_bytes_per_sec !== undefined && p.write_bytes_per_sec !== undefined
      ? p.read_bytes_per_sec + p.write_bytes_per_sec
      : input !== undefined && output !== undefined
        ? input + output
        : undefined;
  const opt = <K extends string>(k: K, v: number | undefined) => (v === undefined ? {} : { [k]: v });
  return {
    ...opt("time", p.time),
    reads,
    writes,
    others,
    ...opt("readBw", p.read_bytes_per_sec),
    ...opt("writeBw", p.write_bytes_per_sec),
    ...opt("bw", bw),
    ...opt("readMs", msOf(p.usec_per_read_op)),
    ...opt("writeMs", msOf(p.usec_per_write_op)),
    ...opt("opMs", ops > 0 ? weighted / ops / 1000 : undefined),
  } as PerfSample;
}

export const iopsOf = (s: PerfSample) => s.reads + s.writes + s.others;
const rate = (bytes: number | undefined) => (bytes === undefined ? "–" : `${formatBytes(bytes)}/s`);
const latency = (ms: number | undefined) => (ms === undefined ? "–" : formatLatencyMs(ms));
const ops = (n: number | undefined) => (n === undefined ? "–" : formatCount(Math.round(n)));

/** The raw values of a table's number columns (structured results): null where the array gave none. */
const NOW_KEYS = ["reads", "writes", "others", "readBw", "writeBw", "readMs", "writeMs"] as const;
const numbers = <T extends Partial<Record<(typeof NOW_KEYS)[number], number>>>(o: T, keys: typeof NOW_KEYS) =>
  Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));
const spread = (p: string, x: { avg?: number; p95?: number; max?: number } | undefined) => ({
  [`${p}Avg`]: x?.avg ?? null,
  [`${p}P95`]: x?.p95 ?? null,
  [`${p}Max`]: x?.max ?? null,
});

const perfShow = defineCommand({
  verb: "show",
  summary: "Reads, writes, bandwidth and latency now, or over a past window with a chart",
  examples: [
    "perf show",
    "perf show --last 24h",
    "perf show --last 7d --protocol nfs",
    "perf show --array all",
  ],
  role: "viewer",
  endpoints: ["GET /arrays/performance"],
  args: z.object({
    last: timeWindow().optional().describe(`history over this window instead of now; ${WINDOW_HELP}`),
    protocol: wired(
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(PROTOCOLS, { error: `use one of ${PROTOCOLS.join(", ")}` })),
      enumWire(PROTOCOLS),
    )
      .default("all")
      .describe(`one protocol's share: ${PROTOCOLS.join(", ")}`),
  }),
  async run(args, ctx): Promise<PerfResult> {
    const current = await ctx.array.arrays.performance(args.protocol);
    const now = [{ array: ctx.arrayName, sample: toSample(current) }];
    if (args.last === undefined) return { now, history: [] };
    // The window is anchored on the array's clock: its history is indexed by it, and a bot clock running
    // ahead would otherwise ask for a start the array considers in the future.
    const end = current.time ?? ctx.now();
    const start = end - args.last.ms;
    const resolution = resolutionFor(args.last.ms);
    const page = await ctx.array.get("/arrays/performance", {
      query: { start_time: start, end_time: end, resolution, protocol: args.protocol },
      schema: arrayPerformanceSchema,
    });
    const samples = page.items
      .map(toSample)
      .filter((s) => s.time !== undefined)
      .sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
    return { now, history: [{ array: ctx.arrayName, start, end, resolution, samples }] };
  },
  merge(results) {
    return {
      now: results.flatMap((r) => r.result.now),
      history: results.flatMap((r) => r.result.history),
    };
  },
  render(result, args, rctx) {
    const where = rctx.arrays.length > 1 ? `${rctx.arrays.length} arrays` : (rctx.arrays[0] ?? "?");
    const scope = args.protocol === "all" ? "all protocols" : args.protocol.toUpperCase();
    if (args.last === undefined) {
      const rows = result.now.map(({ array, sample: s }) => ({
        array,
        reads: ops(s.reads),
        writes: ops(s.writes),
        others: ops(s.others),
        readBw: rate(s.readBw),
        writeBw: rate(s.writeBw),
        readMs: latency(s.readMs),
        writeMs: latency(s.writeMs),
      }));
      const table = truncatedTable(
        columnsOf(
          {
            array: "Array",
            reads: "Reads/s",
            writes: "Writes/s",
            others: "Other ops/s",
            readBw: "Read",
            writeBw: "Write",
            readMs: "Read latency",
            writeMs: "Write latency",
          },
          "numbers",
        ),
        rows,
        {
          limit: rctx.tableRows,
          filename: "performance.csv",
          title: `Performance on ${where}`,
          // Operations per second, bytes per second, milliseconds.
          values: result.now.map(({ array, sample }) => ({ array, ...numbers(sample, NOW_KEYS) })),
        },
      );
      const headline = `Performance now on ${where} (${scope})`;
      const summary = result.now
        .map(({ array, sample: s }) => `${array} ${ops(iopsOf(s))} IOPS, ${rate(s.bw)}, ${latency(s.opMs)}`)
        .join("; ");
      return message(`${headline}: ${summary}`, [
        { type: "header", text: headline },
        table.block,
        { type: "context", text: rich`For the trend add \`--last 1h\`, \`--last 24h\` or \`--last 7d\`.` },
      ]);
    }
    const window = args.last.text;
    const stats = result.history.map((h) => ({
      array: h.array,
      count: h.samples.length,
      iops: summarize(h.samples.map(iopsOf)),
      bw: summarize(h.samples.map((s) => s.bw)),
      lat: summarize(h.samples.map((s) => s.opMs)),
    }));
    const rows = stats.map((s) => ({
      array: s.array,
      samples: formatCount(s.count),
      iopsAvg: ops(s.iops?.avg),
      iopsP95: ops(s.iops?.p95),
      iopsMax: ops(s.iops?.max),
      bwAvg: rate(s.bw?.avg),
      bwP95: rate(s.bw?.p95),
      bwMax: rate(s.bw?.max),
      latAvg: latency(s.lat?.avg),
      latP95: latency(s.lat?.p95),
      latMax: latency(s.lat?.max),
    }));
    const right = "right" as const;
    const table = truncatedTable(
      [
        { key: "array", label: "Array" },
        { key: "samples", label: "Samples", align: right },
        { key: "iopsAvg", label: "IOPS avg", align: right },
        { key: "iopsP95", label: "IOPS p95", align: right },
        { key: "iopsMax", label: "IOPS max", align: right },
        { key: "bwAvg", label: "Bandwidth avg", align: right },
        { key: "bwP95", label: "Bandwidth p95", align: right },
        { key: "bwMax", label: "Bandwidth max", align: right },
        { key: "latAvg", label: "Latency avg", align: right },
        { key: "latP95", label: "Latency p95", align: right },
        { key: "latMax", label: "Latency max", align: right },
      ],
      rows,
      {
        limit: rctx.tableRows,
        filename: "performance-summary.csv",
        title: `Performance on ${where}, last ${window}`,
        values: stats.map((s) => ({
          array: s.array,
          samples: s.count,
          ...spread("iops", s.iops),
          ...spread("bw", s.bw),
          ...spread("lat", s.lat),
        })),
      },
    );
    const headline = `Performance on ${where}, last ${window} (${scope})`;
    const blocks: Block[] = [{ type: "header", text: headline }, table.block];
    const first = result.history[0];
    if (first) {
      blocks.push({
        type: "context",
        text: rich`${formatDuration(first.resolution)} samples from ${formatTimestamp(first.start, rctx.timeZone)} to ${formatTimestamp(first.end, rctx.timeZone)}; latency is per operation, weighted by the mix of reads, writes and other operations.`,
      });
    }
    const only = result.history.length === 1 ? first : undefined;
    if (only && only.samples.length === 0) {
      blocks.push({
        type: "section",
        text: rich`${only.array} returned no samples for the last ${window}, so there is no chart.`,
      });
    } else if (only) {
      blocks.push(perfChart(only, window, rctx.timeZone));
    } else if (result.history.length > 1) {
      blocks.push({
        type: "context",
        text: rich`Charts are drawn for one array at a time: add \`--array <name>\` to see one.`,
      });
    }
    const summary = stats
      .map((s) => `${s.array} p95 ${ops(s.iops?.p95)} IOPS, ${latency(s.lat?.p95)}`)
      .join("; ");
    return message(`${headline}: ${summary}`, blocks);
  },
});

export const perfResource = defineResource({
  name: "perf",
  area: "Insight",
  aliases: ["performance"],
  summary: "Array performance now and over time, with charts",
  defaultVerb: "show",
  commands: [perfShow],
});
