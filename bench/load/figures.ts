/** The load test's memory figures and percentiles, from what the bot's process sampled. */
import type { BotSample } from "./bot.js";

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  n: number;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export function pcts(xs: number[]): Percentiles {
  return { p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99), n: xs.length };
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

export type MemorySample = BotSample;

export interface MemoryReport {
  /** Whose memory: the bot's process alone (botInChild), or the bot's with the driver and the fake Slack. */
  scope?: string;
  /** Warm-up: the first third of the run, at most 120 s (the count-bounded caches fill in it). */
  warmUpSeconds: number;
  /** RSS when warm-up ends, and the highest RSS after it. */
  rssAfterWarmUpMiB: number;
  rssPeakAfterWarmUpMiB: number;
  rssEndMiB: number;
  /** RSS (and heap used) at the end of sending minus at its middle, each the median of 5 samples around it. */
  rssGrowthLastHalfMiB: number;
  heapGrowthLastHalfMiB: number;
  /** Heap used right after a full GC (needs node --expose-gc) at the end of warm-up, the middle and the end. */
  liveHeapMiB?: { warm: number; half: number; end: number };
  /** One sample a second while sending. */
  samples: MemorySample[];
  /** V8's spaces at the end (committed and used MiB). */
  spaces?: { name: string; committedMiB: number; usedMiB: number }[];
}

/** The memory figures from samples taken once a second over `seconds` of sending. */
export function memoryReport(samples: readonly MemorySample[], seconds: number): MemoryReport {
  const warmUpSeconds = Math.min(120, seconds / 3);
  const around = (t: number, f: (s: MemorySample) => number): number => {
    const near = [...samples].sort((a, b) => Math.abs(a.t - t) - Math.abs(b.t - t)).slice(0, 5);
    const xs = near.map(f).sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)] ?? 0;
  };
  const after = samples.filter((s) => s.t >= warmUpSeconds);
  const rss = (s: MemorySample) => s.rssMiB;
  const heap = (s: MemorySample) => s.heapUsedMiB;
  return {
    warmUpSeconds,
    rssAfterWarmUpMiB: after[0]?.rssMiB ?? 0,
    rssPeakAfterWarmUpMiB: Math.max(0, ...after.map(rss)),
    rssEndMiB: samples.at(-1)?.rssMiB ?? 0,
    rssGrowthLastHalfMiB: around(seconds, rss) - around(seconds / 2, rss),
    heapGrowthLastHalfMiB: around(seconds, heap) - around(seconds / 2, heap),
    samples: [...samples],
  };
}
