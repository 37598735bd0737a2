/**
 * The per-person limit, checked before a command is parsed: a token bucket per chat user (the burst, refilled
 * at the per-minute rate on the injected clock) and a cap on that person's commands running at once. One
 * person's burst never slows anyone else: each user id has its own bucket and count.
 */
import type { LimitsConfig } from "../../config/limits.js";
import { UserFacingError } from "../../errors.js";

export type LimitReason = "rate" | "concurrency" | "budget";

export interface PersonLimiter {
  /**
   * Takes `cost` tokens (1, or 0 for help, which reaches no array) and a running slot for `userId`, or throws
   * RATE_LIMITED saying when to try again. Returns the function that frees the slot.
   */
  start(userId: string, cost?: number): () => void;
}

interface Person {
  tokens: number;
  at: number;
  running: number;
}

/** Idle people with full buckets are forgotten once this many are tracked (memory stays bounded). */
const PRUNE_ABOVE = 5000;

export function createPersonLimiter(
  limits: LimitsConfig,
  now: () => number,
  onLimited: (reason: LimitReason) => void = () => {},
): PersonLimiter {
  const people = new Map<string, Person>();
  const perMs = limits.per_minute / 60_000;
  const rateOn = limits.burst > 0 && limits.per_minute > 0;

  const refill = (p: Person, t: number) => {
    p.tokens = Math.min(limits.burst, p.tokens + Math.max(0, t - p.at) * perMs);
    p.at = t;
  };

  const prune = (t: number) => {
    if (people.size <= PRUNE_ABOVE) return;
    for (const [id, p] of people) {
      refill(p, t);
      if (p.running === 0 && p.tokens >= limits.burst) people.delete(id);
    }
  };

  return {
    start(userId, cost = 1) {
      const t = now();
      let p = people.get(userId);
      if (!p) {
        prune(t);
        p = { tokens: limits.burst, at: t, running: 0 };
        people.set(userId, p);
      }
      refill(p, t);
      const person = p;
      if (limits.concurrent > 0 && person.running >= limits.concurrent) {
        onLimited("concurrency");
        throw slowDown(person.running, "try again when one of them has answered");
      }
      if (rateOn && cost > 0 && person.tokens < cost) {
        onLimited("rate");
        const waitS = Math.max(1, Math.ceil((cost - person.tokens) / perMs / 1000));
        throw slowDown(
          person.running,
          `you sent more than ${limits.burst} in a short time (the limit is ${limits.per_minute} a minute); try again in ${waitS} s`,
        );
      }
      if (rateOn) person.tokens -= cost;
      person.running++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        person.running--;
      };
    },
  };
}

function slowDown(running: number, then: string): UserFacingError {
  const n = running === 1 ? "1 of your commands is" : `${running} of your commands are`;
  return new UserFacingError("RATE_LIMITED", `Slow down: ${n} running; ${then}.`);
}
