/** start_time / end_time / resolution: one instantaneous sample, or a historical series. */
import type { SimRequest } from "../types.js";
import { badRequest } from "../types.js";

export const DEFAULT_RESOLUTION_MS = 30_000;
export const MAX_SAMPLES = 10_000;
const MIN_RESOLUTION_MS = 1_000;

/** Sample times for the request: `[now]` without a window, else every `resolution` ms from start to end. */
export function sampleTimes(req: SimRequest, now: number): number[] {
  const start = req.query.int("start_time");
  const end = req.query.int("end_time");
  const resolution = req.query.int("resolution") ?? DEFAULT_RESOLUTION_MS;
  if (resolution < MIN_RESOLUTION_MS) {
    throw badRequest(
      `'resolution' must be at least ${MIN_RESOLUTION_MS} ms; the default is ${DEFAULT_RESOLUTION_MS}.`,
    );
  }
  if (start === undefined && end === undefined) return [now];
  if (start === undefined) throw badRequest("'end_time' needs 'start_time'.");
  if (start < 0) throw badRequest("'start_time' must be a time in ms since the epoch.");
  if (start > now) throw badRequest("'start_time' is in the future.");
  const last = Math.min(end ?? now, now);
  if ((end ?? now) < start) throw badRequest("'end_time' must not be before 'start_time'.");
  const first = Math.ceil(start / resolution) * resolution;
  if (first > last) return [];
  const count = Math.floor((last - first) / resolution) + 1;
  if (count > MAX_SAMPLES) {
    throw badRequest(
      `That window has ${count} samples at ${resolution} ms; at most ${MAX_SAMPLES} are served. ` +
        "Narrow the window or raise 'resolution'.",
    );
  }
  const out: number[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = first + i * resolution;
  return out;
}
