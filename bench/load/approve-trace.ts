/**
 * Where an approval's time goes: the bot's process records each array call (the pool's call observer) and its
 * event-loop delay; the driver records each approval's click and answer. Matched by array (an approval's array
 * sees little else at a large fleet), in epoch milliseconds (one machine, one clock), each approval splits into
 * before its first array call (the click's ack, the pending store, the role checks), the array calls (the re-read
 * of the state the card was computed from, the change; with the arrays' latency, faults and retries), and after
 * them (the store, the audit, the card's rendering and its post to Slack).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ArrayCallEvent } from "../../src/flashblade/types.js";
import { type Percentiles, pcts } from "./figures.js";

const epoch = () => performance.timeOrigin + performance.now();

/** One array call, as the bot's process saw it (epoch ms). */
export interface TracedCall {
  array: string;
  method: string;
  start: number;
  end: number;
  ok: boolean;
  /** Of a DELETE: the calls to its array in the 5 s before it (and itself). */
  window?: TracedCall[];
}

/** The bot's side: the calls of the last minute, per array, and the event loop's delay. */
export function callRecorder() {
  const calls = new Map<string, TracedCall[]>();
  const deletes: TracedCall[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  return {
    observe(e: ArrayCallEvent): void {
      const end = epoch();
      const c: TracedCall = {
        array: e.array,
        method: e.method,
        start: end - e.ms,
        end,
        ok: e.outcome === "ok",
      };
      const list = calls.get(e.array) ?? [];
      // Only what an approval's window can reach is kept: the last minute of this array.
      while (list[0] !== undefined && list[0].end < end - 60_000) list.shift();
      list.push(c);
      calls.set(e.array, list);
      if (e.method !== "DELETE") return;
      const start = earliestBefore(list, c);
      const window = list.filter((x) => x.start >= start);
      deletes.push({ ...c, start, window });
    },
    /** Each DELETE with the start of the first call to its array in the 5 s before it; the loop's delay. */
    report() {
      loop.disable();
      return {
        deletes,
        loopDelayMs: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      };
    },
  };
}

function earliestBefore(list: readonly TracedCall[], del: TracedCall): number {
  let first = del.start;
  for (const c of list) if (c.end >= del.start - 5_000 && c.start < first) first = c.start;
  return first;
}

/** The driver's side: one approval, from its click to its answer (epoch ms). */
export interface TracedApproval {
  array: string;
  click: number;
  answered: number;
  /** Whether the approval met a Slack 429 (its Retry-After is Slack's wait, not the bot's). */
  throttled?: boolean;
}

export interface ApproveBreakdown {
  /** Approvals matched with their DELETE. */
  matched: number;
  beforeArray: Percentiles;
  arrayCalls: Percentiles;
  afterArray: Percentiles;
  /** The slowest approvals, split: ms before, in and after the array calls. */
  slowest: {
    total: number;
    before: number;
    arrays: number;
    after: number;
    array: string;
    throttled: boolean;
    /** The array's calls from the click on, as `@start METHOD ms` (start from the click; a failed one marked `!`). */
    calls: string[];
  }[];
  loopDelayMs?: { p50: number; p99: number; max: number };
}

export function breakdown(
  approvals: readonly TracedApproval[],
  deletes: readonly TracedCall[],
  loopDelayMs?: ApproveBreakdown["loopDelayMs"],
): ApproveBreakdown {
  const rows = approvals.flatMap((a) => {
    const d = deletes.find((x) => x.array === a.array && x.end >= a.click && x.end <= a.answered);
    if (!d) return [];
    // The approval's own calls: those to its array from its click on (the window reaches 5 s back).
    const mine = (d.window ?? []).filter((x) => x.start >= a.click);
    const firstCall = Math.min(d.end, ...mine.map((x) => x.start));
    const before = Math.max(0, firstCall - a.click);
    const first = Math.max(firstCall, a.click);
    return [
      {
        total: a.answered - a.click,
        before,
        arrays: d.end - first,
        after: a.answered - d.end,
        array: a.array,
        throttled: a.throttled === true,
        calls: mine.map(
          (x) =>
            `@${(x.start - a.click).toFixed(0)} ${x.method} ${(x.end - x.start).toFixed(0)}${x.ok ? "" : "!"}`,
        ),
      },
    ];
  });
  return {
    matched: rows.length,
    beforeArray: pcts(rows.map((r) => r.before)),
    arrayCalls: pcts(rows.map((r) => r.arrays)),
    afterArray: pcts(rows.map((r) => r.after)),
    // The goal's set first: a Slack 429's wait is Slack's; the slowest of those are shown after.
    slowest: [
      ...[...rows]
        .filter((r) => !r.throttled)
        .sort((x, y) => y.total - x.total)
        .slice(0, 5),
      ...[...rows]
        .filter((r) => r.throttled)
        .sort((x, y) => y.total - x.total)
        .slice(0, 2),
    ],
    ...(loopDelayMs ? { loopDelayMs } : {}),
  };
}

export { epoch };
