/**
 * The figures a diagnosis should state, recomputed here from the raw samples read over the wire with the bot's own
 * client (not from diagnose's modules): window means, the same hours of the previous days, their median and robust
 * spread, and the clients against NFS at the same moment. The rules are the ones docs/console.md states.
 */
import type { ArrayClient } from "../../src/flashblade/types.js";

type Row = Record<string, unknown>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** diagnose's default window, read at its 5-minute floor of resolution, against 7 previous days. */
export const WINDOW = HOUR;
const RESOLUTION = 5 * MINUTE;
const DAYS = 7;

const n = (r: Row, k: string) => (typeof r[k] === "number" ? (r[k] as number) : 0);
export const opsOf = (r: Row) => n(r, "reads_per_sec") + n(r, "writes_per_sec") + n(r, "others_per_sec");
/** Latency per operation, ms: each kind's latency weighted by that kind's operations. */
export function opMsOf(r: Row): number | undefined {
  const ops = opsOf(r);
  if (ops <= 0) return undefined;
  const weighted =
    n(r, "reads_per_sec") * n(r, "usec_per_read_op") +
    n(r, "writes_per_sec") * n(r, "usec_per_write_op") +
    n(r, "others_per_sec") * n(r, "usec_per_other_op");
  return weighted / ops / 1000;
}
const bwOf = (r: Row) => n(r, "read_bytes_per_sec") + n(r, "write_bytes_per_sec");

export type Kind = "latency" | "iops" | "bandwidth";

/** Over a window: rates averaged over samples, latency over operations (a busy sample weighs what it carried). */
export function windowValue(rows: readonly Row[], kind: Kind): number | undefined {
  if (kind === "latency") {
    const ops = rows.reduce((a, r) => a + opsOf(r), 0);
    if (ops <= 0) return undefined;
    return rows.reduce((a, r) => a + (opMsOf(r) ?? 0) * opsOf(r), 0) / ops;
  }
  if (rows.length === 0) return undefined;
  const f = kind === "iops" ? opsOf : bwOf;
  return rows.reduce((a, r) => a + f(r), 0) / rows.length;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

export interface Expected {
  now: number;
  usual: number;
  days: number;
  /** now ÷ usual, and the distance in robust spreads (1.4826 × MAD, at least 5 % of usual). */
  ratio: number;
  sigma: number;
}

/** The window (ending at the array's time) and the same hours of each previous day, read raw over the wire. */
export async function protocolSeries(client: ArrayClient, protocol: string, end: number) {
  const read = async (d: number) =>
    (
      await client.get<Row>("/arrays/performance", {
        query: {
          protocol,
          start_time: end - WINDOW - d * DAY,
          end_time: end - d * DAY,
          resolution: RESOLUTION,
        },
      })
    ).items;
  const all = await Promise.all(Array.from({ length: DAYS + 1 }, (_, d) => read(d)));
  return { window: all[0] ?? [], days: all.slice(1).filter((d) => d.length > 0) };
}

export function expected(series: { window: Row[]; days: Row[][] }, kind: Kind): Expected | undefined {
  const now = windowValue(series.window, kind);
  const daily = series.days.flatMap((d) => {
    const v = windowValue(d, kind);
    return v === undefined ? [] : [v];
  });
  if (now === undefined || daily.length === 0) return undefined;
  const usual = median(daily);
  const spread = Math.max(1.4826 * median(daily.map((v) => Math.abs(v - usual))), 0.05 * Math.abs(usual));
  return { now, usual, days: daily.length, ratio: now / usual, sigma: Math.abs(now - usual) / spread };
}
