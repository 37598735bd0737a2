import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  DEFAULT_RETRY,
  decideOnFailure,
  decideOnStatus,
  parseRetryAfter,
} from "../../src/flashblade/retry.js";
import { TransportFailure } from "../../src/flashblade/transport.js";

const failure = (kind: TransportFailure["kind"]) => new TransportFailure(kind, kind, undefined, undefined);
const env = (now = 0) => ({ random: () => 0.5, now, policy: DEFAULT_RETRY });

describe("retry policy", () => {
  it("back-off is full jitter under an exponential ceiling with a cap", () => {
    expect(backoffDelay(0, () => 0.999, DEFAULT_RETRY)).toBe(99);
    expect(backoffDelay(2, () => 0.5, DEFAULT_RETRY)).toBe(200);
    expect(backoffDelay(10, () => 0.999, DEFAULT_RETRY)).toBe(4995);
    expect(backoffDelay(3, () => 0, DEFAULT_RETRY)).toBe(0);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("retries anything that never reached the array, writes included", () => {
    for (const m of ["GET", "POST", "PATCH", "DELETE"] as const) {
      expect(decideOnFailure(m, failure("connect"), 0, () => 0.5, DEFAULT_RETRY).retry).toBe(true);
    }
    expect(decideOnFailure("GET", failure("connect"), 3, () => 0.5, DEFAULT_RETRY).retry).toBe(false);
    expect(decideOnFailure("GET", failure("tls"), 0, () => 0.5, DEFAULT_RETRY).retry).toBe(false);
  });

  it("never repeats a write that may have been applied", () => {
    for (const m of ["POST", "PATCH", "DELETE"] as const) {
      expect(decideOnFailure(m, failure("timeout"), 0, () => 0.5, DEFAULT_RETRY).retry).toBe(false);
      expect(decideOnFailure(m, failure("socket"), 0, () => 0.5, DEFAULT_RETRY).retry).toBe(false);
      expect(decideOnStatus(m, 503, "1", 0, env()).retry).toBe(false);
      expect(decideOnStatus(m, 502, undefined, 0, env()).retry).toBe(false);
    }
    expect(decideOnFailure("GET", failure("timeout"), 0, () => 0.5, DEFAULT_RETRY).retry).toBe(true);
  });

  it("sends a read whose connection broke again at once the first time, then backs off", () => {
    expect(decideOnFailure("GET", failure("socket"), 0, () => 0.5, DEFAULT_RETRY)).toEqual({
      retry: true,
      delayMs: 0,
    });
    expect(decideOnFailure("GET", failure("socket"), 1, () => 0.5, DEFAULT_RETRY)).toEqual({
      retry: true,
      delayMs: 100,
    });
    // A time-out or a refused connection is not a broken socket: the back-off holds from the first retry.
    expect(decideOnFailure("GET", failure("timeout"), 0, () => 0.5, DEFAULT_RETRY)).toEqual({
      retry: true,
      delayMs: 50,
    });
    expect(decideOnFailure("GET", failure("connect"), 0, () => 0.5, DEFAULT_RETRY)).toEqual({
      retry: true,
      delayMs: 50,
    });
  });

  it("honours Retry-After on 429 (any method) and 503 (GET), within a cap", () => {
    expect(decideOnStatus("PATCH", 429, "2", 0, env())).toEqual({ retry: true, delayMs: 2000 });
    expect(decideOnStatus("GET", 503, "4", 0, env())).toEqual({ retry: true, delayMs: 4000 });
    expect(decideOnStatus("GET", 429, undefined, 1, env())).toEqual({ retry: true, delayMs: 100 });
    expect(decideOnStatus("GET", 429, "600", 0, env())).toEqual({ retry: false, retryAfterMs: 600_000 });
    expect(decideOnStatus("GET", 400, "1", 0, env()).retry).toBe(false);
    expect(decideOnStatus("GET", 500, undefined, 0, env()).retry).toBe(false);
    expect(decideOnStatus("GET", 503, "1", 3, env())).toEqual({ retry: false, retryAfterMs: 1000 });
  });
});
