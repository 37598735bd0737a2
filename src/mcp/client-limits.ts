/**
 * Each MCP client's own limits (its `mcp.clients` entry's `limits`), checked by the face before the call reaches
 * the pipeline, where the per-principal limits apply as to anyone: an agent in a loop is stopped at its own rate
 * and concurrency, and its calls send at most its own budget of array requests. Buckets live in this process (a
 * replica keeps its own), like the per-person ones.
 */
import type { McpClientConfig, McpClientLimits } from "../config/mcp.js";
import { createPersonLimiter, type PersonLimiter } from "../core/access/person-limits.js";
import { BotError, type ErrorCode } from "../errors.js";

export interface ClientGate {
  /** Takes a token and a running slot for the client, or gives the refusal; returns the function that frees it. */
  start(client: McpClientConfig, cost: number): (() => void) | { refused: string; code: ErrorCode };
  /** The array requests a call of this client may send, when its entry sets a budget. */
  budget(client: McpClientConfig): number | undefined;
}

function limiterOf(l: McpClientLimits, now: () => number): PersonLimiter {
  return createPersonLimiter(
    {
      // 0 turns a limit off (src/config/limits.ts): the entry's absent ones are off.
      per_minute: l.per_minute ?? 0,
      burst: l.burst ?? (l.per_minute === undefined ? 0 : Math.max(1, Math.ceil(l.per_minute))),
      concurrent: l.concurrent ?? 0,
      array_requests_per_command: l.array_requests_per_call ?? 1,
    },
    now,
  );
}

export function clientGate(clients: Iterable<McpClientConfig>, now: () => number): ClientGate {
  const limiters = new Map<string, PersonLimiter>();
  for (const c of clients) if (c.limits) limiters.set(c.name, limiterOf(c.limits, now));
  return {
    start(client, cost) {
      const limiter = limiters.get(client.name);
      if (!limiter) return () => {};
      try {
        return limiter.start(client.name, cost);
      } catch (err) {
        if (!(err instanceof BotError)) throw err;
        return { refused: `${err.message} (the limits of client ${client.name})`, code: err.code };
      }
    },
    budget: (client) => client.limits?.array_requests_per_call,
  };
}
