/**
 * A command's budget of array requests: one count shared by every client the command is handed (each array
 * of a fan-out, and arrays it reaches through the pool). The request past the budget is not sent; the command
 * stops with REQUEST_BUDGET, a clear message saying how to ask for less.
 */
import { UserFacingError } from "../errors.js";
import { guardedClient, guardedPool, wrapOnce } from "../flashblade/guarded-client.js";
import type { ArrayPool } from "../flashblade/types.js";
import type { CommandContext } from "./define-command.js";

export interface RequestBudget {
  readonly limit: number;
  /** Requests charged so far. */
  readonly used: number;
  /** The context with its array and pool sending through this budget. */
  apply(ctx: CommandContext): CommandContext;
}

export function createRequestBudget(limit: number, onExceeded: () => void = () => {}): RequestBudget {
  let used = 0;
  let told = false;
  const before = (): void => {
    if (used >= limit) {
      if (!told) onExceeded();
      told = true;
      throw new UserFacingError(
        "REQUEST_BUDGET",
        `Stopped: this command needed more than ${limit} array requests (the per-command limit). Ask for less: one array instead of several, a --filter or --name, or a --limit.`,
      );
    }
    used++;
  };
  const guard = wrapOnce((client) => guardedClient(client, before));
  return {
    limit,
    get used() {
      return used;
    },
    apply(ctx) {
      const pool: ArrayPool = guardedPool(ctx.pool, guard);
      // Copied by descriptor: `array` stays a getter (a global command's context has none to give).
      return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)), {
        array: { get: () => guard(ctx.array), enumerable: true },
        pool: { value: pool, enumerable: true },
      }) as CommandContext;
    },
  };
}

/** Budgets by request id, so every context built for one request shares one count. */
export interface RequestBudgets {
  /** The context sending through its request's budget (unchanged when there is no limit). */
  apply(requestId: string, ctx: CommandContext): CommandContext;
  /** A lower budget for one request (an MCP client's own, from its entry); the lower of the two applies. */
  lower(requestId: string, limit: number): void;
  /** Forgets a finished request's budget (clients already handed out keep counting against it). */
  release(requestId: string): void;
}

/** Requests whose budget is remembered at once; the oldest is dropped past it (a request never released). */
const MAX_TRACKED = 10_000;

export function requestBudgets(limit: number | undefined, onExceeded?: () => void): RequestBudgets {
  const budgets = new Map<string, RequestBudget>();
  const lowered = new Map<string, number>();
  return {
    apply(requestId, ctx) {
      const own = lowered.get(requestId);
      const effective = own === undefined ? limit : Math.min(own, limit ?? own);
      if (effective === undefined) return ctx;
      let b = budgets.get(requestId);
      if (!b) {
        b = createRequestBudget(effective, onExceeded);
        budgets.set(requestId, b);
        if (budgets.size > MAX_TRACKED) budgets.delete(budgets.keys().next().value as string);
      }
      return b.apply(ctx);
    },
    lower(requestId, own) {
      lowered.set(requestId, own);
      if (lowered.size > MAX_TRACKED) lowered.delete(lowered.keys().next().value as string);
    },
    release(requestId) {
      budgets.delete(requestId);
      lowered.delete(requestId);
    },
  };
}
