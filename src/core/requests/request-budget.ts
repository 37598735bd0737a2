/**
 * A command's budget of array requests: one count shared by every client the command is handed (each array
 * of a fan-out, and arrays it reaches through the pool). The request past the budget is not sent; the command
 * stops with REQUEST_BUDGET, a clear message saying how to ask for less.
 */
import { UserFacingError } from "../../errors.js";
import type { RequestHooks } from "../../flashblade/interceptor.js";

type Charge = NonNullable<RequestHooks["budget"]>;

export interface RequestBudget {
  readonly limit: number;
  /** Requests charged so far. */
  readonly used: number;
  /** The interceptor's budget hook: charges one request, or throws REQUEST_BUDGET when none is left. */
  readonly charge: Charge;
}

export function createRequestBudget(limit: number, onExceeded: () => void = () => {}): RequestBudget {
  let used = 0;
  let told = false;
  const charge = (): void => {
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
  return {
    limit,
    get used() {
      return used;
    },
    charge,
  };
}

/** Budgets by request id, so every context built for one request shares one count. */
export interface RequestBudgets {
  /** The budget hook of a request, shared by every client its contexts hand out (none when there is no limit). */
  hook(requestId: string): Charge | undefined;
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
    hook(requestId) {
      const own = lowered.get(requestId);
      const effective = own === undefined ? limit : Math.min(own, limit ?? own);
      if (effective === undefined) return undefined;
      let b = budgets.get(requestId);
      if (!b) {
        b = createRequestBudget(effective, onExceeded);
        budgets.set(requestId, b);
        if (budgets.size > MAX_TRACKED) budgets.delete(budgets.keys().next().value as string);
      }
      return b.charge;
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
