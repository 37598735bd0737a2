/**
 * Synthetic metrics: a deterministic function of (seed, object, metric, time), with a daily swing and a
 * per-minute wobble. Never negative; integers unless the model says float.
 */
import { hashString, noise } from "./random.js";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** One metric of one object at time t, around `base`. */
export function metric(seed: number, key: string, t: number, base: number): number {
  const h = hashString(key);
  const phase = (h % 1000) / 1000;
  const daily = 0.65 + 0.35 * Math.sin(2 * Math.PI * (t / DAY_MS + phase));
  const wobble = 0.8 + 0.4 * noise(seed, h, Math.floor(t / MINUTE_MS));
  return Math.max(0, base * daily * wobble);
}

function round(v: number, float: boolean): number {
  return float ? Math.round(v * 100) / 100 : Math.round(v);
}

/**
 * The twelve metrics shared by array, client, file system and bucket performance, consistent with each other
 * (bytes per second = ops per second × bytes per op).
 */
export function standardPerformance(
  seed: number,
  key: string,
  t: number,
  scale: number,
  float: boolean,
): Record<string, number> {
  const reads = metric(seed, `${key}:reads`, t, 4000 * scale);
  const writes = metric(seed, `${key}:writes`, t, 2000 * scale);
  const others = metric(seed, `${key}:others`, t, 1500 * scale);
  const bytesPerRead = metric(seed, `${key}:bpr`, t, 96 * 1024);
  const bytesPerWrite = metric(seed, `${key}:bpw`, t, 128 * 1024);
  const readBytes = reads * bytesPerRead;
  const writeBytes = writes * bytesPerWrite;
  const ops = reads + writes + others;
  return {
    bytes_per_op: round(ops > 0 ? (readBytes + writeBytes) / ops : 0, float),
    bytes_per_read: round(reads > 0 ? bytesPerRead : 0, float),
    bytes_per_write: round(writes > 0 ? bytesPerWrite : 0, float),
    others_per_sec: round(others, float),
    read_bytes_per_sec: round(readBytes, float),
    reads_per_sec: round(reads, float),
    usec_per_other_op: round(metric(seed, `${key}:uo`, t, 250), float),
    usec_per_read_op: round(metric(seed, `${key}:ur`, t, 900), float),
    usec_per_write_op: round(metric(seed, `${key}:uw`, t, 1400), float),
    write_bytes_per_sec: round(writeBytes, float),
    writes_per_sec: round(writes, float),
  };
}

/** Metrics named `*_per_sec` are rates, `usec_per_*` latencies; all integers (the protocol-specific models). */
export function namedMetrics(
  seed: number,
  key: string,
  t: number,
  fields: readonly string[],
  scale: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of fields) {
    const base = f.startsWith("usec_per_") ? 600 : 800 * scale;
    out[f] = Math.round(metric(seed, `${key}:${f}`, t, base));
  }
  return out;
}
