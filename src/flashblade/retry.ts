/**
 * When a failed exchange may be tried again, and after how long. The rule that matters most: a write that
 * may have reached the array (read time-out, connection broken after sending) is never repeated, because
 * repeating a POST or PATCH can apply it twice. Writes are retried only when they provably were not applied:
 * the connection never opened, or the array answered 429 (throttled).
 */
import type { HttpMethod } from "../rest-spec/endpoints.js";
import type { TransportFailure } from "./transport.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Back-off base and cap (full jitter: a random delay in [0, min(cap, base·2^attempt))). */
  baseMs: number;
  capMs: number;
  /** A Retry-After longer than this is not waited for: the call fails and says when to try again. */
  maxRetryAfterMs: number;
}

/**
 * Base 100 ms (was 200): under the 1,000-array load's faults (one array in seven answering 10 % of its reads with
 * 503), the slowest approvals were a recheck's read retried after 0-200 ms and then 0-400 ms, 0.8-1.0 s in all
 * (docs/benchmarks.md). 100 ms is the common base (AWS SDKs' standard mode); an array that says how long to wait
 * (Retry-After) is waited for instead, and three retries still end within 0.7 s at most.
 */
export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseMs: 100,
  capMs: 5_000,
  maxRetryAfterMs: 30_000,
};

export type RetryDecision = { retry: false; retryAfterMs?: number } | { retry: true; delayMs: number };

/** Full-jitter exponential back-off for retry number `attempt` (0 for the first retry). */
export function backoffDelay(attempt: number, random: () => number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

const SAFE: ReadonlySet<HttpMethod> = new Set(["GET"]);

export function decideOnFailure(
  method: HttpMethod,
  failure: TransportFailure,
  attempt: number,
  random: () => number,
  policy: RetryPolicy,
): RetryDecision {
  if (attempt >= policy.maxRetries) return { retry: false };
  if (failure.kind === "tls") return { retry: false };
  // A read whose connection broke is sent again at once, once, on a new connection: a broken socket (a kept-alive
  // one the array or a middlebox dropped, a reset) says nothing about the array's load, and the back-off (a mean
  // of 100 ms then) was the longest part of the slowest approvals under the load's resets. Again, it backs off.
  if (failure.kind === "socket" && attempt === 0 && SAFE.has(method)) return { retry: true, delayMs: 0 };
  if (failure.kind === "connect" || SAFE.has(method)) {
    return { retry: true, delayMs: backoffDelay(attempt, random, policy) };
  }
  return { retry: false };
}

export function decideOnStatus(
  method: HttpMethod,
  status: number,
  retryAfter: string | undefined,
  attempt: number,
  env: { random: () => number; now: number; policy: RetryPolicy },
): RetryDecision {
  const throttled = status === 429;
  const transient = status === 502 || status === 503 || status === 504;
  if (!throttled && !(transient && SAFE.has(method))) return { retry: false };
  const after = status === 429 || status === 503 ? parseRetryAfter(retryAfter, env.now) : undefined;
  if (after !== undefined && after > env.policy.maxRetryAfterMs) return { retry: false, retryAfterMs: after };
  if (attempt >= env.policy.maxRetries) {
    return after === undefined ? { retry: false } : { retry: false, retryAfterMs: after };
  }
  return { retry: true, delayMs: after ?? backoffDelay(attempt, env.random, env.policy) };
}
