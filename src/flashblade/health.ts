/**
 * Per-array health: reachability, latency percentiles over recent calls, the last error, and the "down"
 * state (a circuit breaker). An array is "up" only once it has answered. After N consecutive failures —
 * refused connections and read time-outs alike — the array is marked down and calls fail fast for a short,
 * growing interval (2 s, 4 s … 60 s), so a dead or stalled array costs a chat user one quick message instead
 * of a time-out per call. The first call after the interval is let through as a probe (the connection also
 * probes on a timer, so the array comes back without anyone's call paying for it).
 */
import { markedDown } from "./errors.js";

const FIRST_INTERVAL_MS = 2_000;
const MAX_INTERVAL_MS = 60_000;
const LATENCY_SAMPLES = 128;

export interface DownState {
  since: number;
  reason: string;
  retryAt: number;
  intervalMs: number;
}

export class HealthTracker {
  #failures = 0;
  #down: DownState | undefined;
  #probing = false;
  /** Down because a call got no answer in time (not refused): user calls must not wait on it as probes. */
  #hung = false;
  #status: "unknown" | "up" | "down" = "unknown";
  /** The last login was refused (the token): answering, but of no use until a login succeeds. */
  #refused: { since: number; setting: string } | undefined;
  #lastError: { code: string; message: string; at: number } | undefined;
  readonly #latency: number[] = [];
  #next = 0;

  constructor(
    readonly array: string,
    private readonly downAfter: number,
    private readonly now: () => number,
    private readonly onChange: (event: "down" | "up" | "still-down", state?: DownState) => void = () => {},
  ) {}

  /**
   * Call before sending anything. Throws ARRAY_UNREACHABLE while down, except for the one probe; `mayProbe`
   * false (a user's call while background probing runs) never probes a hung array, so nobody waits it out.
   */
  admit(mayProbe = true): void {
    const down = this.#down;
    if (!down) return;
    const now = this.now();
    // Only a hung array (down by a time-out) is kept from user calls: a refused connection fails fast anyway.
    if ((mayProbe || !this.#hung) && now >= down.retryAt && !this.#probing) {
      this.#probing = true;
      return;
    }
    throw markedDown(this.array, down.since, down.reason, Math.max(0, down.retryAt - now));
  }

  /** The array answered (any HTTP status): it is reachable. */
  reached(latencyMs: number): void {
    this.#latency[this.#next] = latencyMs;
    this.#next = (this.#next + 1) % LATENCY_SAMPLES;
    this.#failures = 0;
    this.#probing = false;
    this.#hung = false;
    this.#status = "up";
    if (this.#down) {
      this.#down = undefined;
      this.onChange("up");
    }
  }

  /** A connection could not be made (refused, time-out, TLS), or a request got no answer in time. */
  connectFailed(reason: string): void {
    this.#failures++;
    const now = this.now();
    const down = this.#down;
    if (down && this.#probing) {
      this.#probing = false;
      down.intervalMs = Math.min(MAX_INTERVAL_MS, down.intervalMs * 2);
      down.retryAt = now + down.intervalMs;
      down.reason = reason;
      this.onChange("still-down", down);
    } else if (!down && this.#failures >= this.downAfter) {
      this.#down = { since: now, reason, retryAt: now + FIRST_INTERVAL_MS, intervalMs: FIRST_INTERVAL_MS };
      this.#status = "down";
      this.onChange("down", this.#down);
    }
  }

  /**
   * A request got no answer within its deadline: the array is "not answering" at once (the breaker opens on
   * the first one), so everything else sent to it fails fast instead of waiting out the same deadline.
   */
  timedOut(reason: string): void {
    this.#hung = true;
    if (this.#down) {
      this.connectFailed(reason);
      return;
    }
    this.#failures = Math.max(this.#failures, this.downAfter - 1);
    this.connectFailed(reason);
  }

  /** Connected but the exchange broke (time-out after sending, reset): says nothing certain about reachability. */
  inconclusive(): void {
    this.#probing = false;
  }

  /** The array refused the bot's login; `setting` is where the token comes from (api_token_env …). */
  loginRefused(setting: string): void {
    this.#refused ??= { since: this.now(), setting };
  }

  /** A login succeeded: the token is good. */
  loginAccepted(): void {
    this.#refused = undefined;
  }

  recordError(code: string, message: string): void {
    this.#lastError = { code, message, at: this.now() };
  }

  get isDown(): boolean {
    return this.#down !== undefined;
  }

  snapshot() {
    const sorted = this.#latency.slice().sort((a, b) => a - b);
    const pick = (q: number) =>
      sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const p50 = pick(0.5);
    const p95 = pick(0.95);
    // Refused only while the array answers: down says more (nothing can be known about the token then).
    const refused = this.#status === "up" ? this.#refused : undefined;
    return {
      status: refused ? ("refused" as const) : this.#status,
      reachable: this.#status === "up" && !refused,
      ...(this.#lastError ? { lastError: { ...this.#lastError } } : {}),
      latencyMs: {
        ...(p50 === undefined ? {} : { p50 }),
        ...(p95 === undefined ? {} : { p95 }),
        samples: sorted.length,
      },
      ...(this.#down
        ? { down: { since: this.#down.since, reason: this.#down.reason, retryAt: this.#down.retryAt } }
        : {}),
      ...(refused ? { refused: { ...refused } } : {}),
    };
  }
}
