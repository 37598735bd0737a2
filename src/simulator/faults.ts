import { z } from "zod";
import { createRng } from "./models/random.js";

/**
 * Injected faults: latency, failed answers and reset connections, optionally limited to a path and method.
 * Which requests a `share` hits is drawn from a seeded generator, so a test run is reproducible.
 */

const match = {
  /** Exact path or `*` glob, matched against the full path (`/api/1.12/arrays`) and the path below the version (`/arrays`). */
  path: z.string().min(1).optional(),
  method: z
    .string()
    .regex(/^[A-Za-z]+$/)
    .transform((m) => m.toUpperCase())
    .optional(),
};
const howOften = {
  /** Probability (0..1) that a matching request is hit; default 1. */
  share: z.number().min(0).max(1).optional(),
  /** Hit only the next N matching requests. */
  count: z.number().int().positive().optional(),
};

export const latencyFaultSchema = z.strictObject({ ...match, ms: z.number().int().min(0).max(600_000) });
export const failureFaultSchema = z.strictObject({
  ...match,
  ...howOften,
  status: z.number().int().min(400).max(599),
  /** Seconds, sent as the `Retry-After` header. */
  retryAfter: z.number().int().min(0).optional(),
  message: z.string().max(500).optional(),
});
export const resetFaultSchema = z.strictObject({ ...match, ...howOften });

export type LatencyFault = z.input<typeof latencyFaultSchema>;
export type FailureFault = z.input<typeof failureFaultSchema>;
export type ResetFault = z.input<typeof resetFaultSchema>;
type Latency = z.output<typeof latencyFaultSchema>;
type Failure = z.output<typeof failureFaultSchema>;
type Reset = z.output<typeof resetFaultSchema>;

export type FaultAction =
  | { kind: "fail"; status: number; retryAfter?: number; message: string }
  | { kind: "reset" };

export interface FaultDecision {
  delayMs: number;
  action?: FaultAction;
}

interface Rule {
  id: number;
  path?: RegExp;
  method?: string;
  share?: number;
  remaining?: number;
  latencyMs?: number;
  action?: FaultAction;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

export class FaultPlan {
  private rules: Rule[] = [];
  private nextId = 1;
  private random: () => number;

  constructor(private seed: number) {
    this.random = createRng(seed);
  }

  /** Rules arrive validated by the control layer's schemas above. */
  addLatency(f: Latency): number {
    return this.add({ path: f.path, method: f.method, latencyMs: f.ms });
  }

  addFailure(f: Failure): number {
    const action: FaultAction = {
      kind: "fail",
      status: f.status,
      message: f.message ?? `Injected fault: the simulator answers ${f.status}.`,
      ...(f.retryAfter === undefined ? {} : { retryAfter: f.retryAfter }),
    };
    return this.add({ path: f.path, method: f.method, share: f.share, remaining: f.count, action });
  }

  addReset(f: Reset): number {
    return this.add({
      path: f.path,
      method: f.method,
      share: f.share,
      remaining: f.count,
      action: { kind: "reset" },
    });
  }

  /** Removes one rule, or every rule and restarts the random sequence from the seed. */
  clear(id?: number): void {
    if (id !== undefined) {
      this.rules = this.rules.filter((r) => r.id !== id);
      return;
    }
    this.rules = [];
    this.random = createRng(this.seed);
  }

  reseed(seed: number): void {
    this.seed = seed;
    this.random = createRng(seed);
  }

  get size(): number {
    return this.rules.length;
  }

  /**
   * What happens to one request: the summed latency of matching latency rules, and the first failure or reset
   * rule that fires. Consumes one unit of a counted rule only when it fires.
   */
  decide(method: string, fullPath: string, endpointPath: string | undefined): FaultDecision {
    let delayMs = 0;
    let action: FaultAction | undefined;
    for (const rule of this.rules) {
      if (!this.matches(rule, method, fullPath, endpointPath)) continue;
      if (rule.latencyMs !== undefined) {
        delayMs += rule.latencyMs;
        continue;
      }
      if (action !== undefined || rule.action === undefined) continue;
      if (rule.remaining !== undefined && rule.remaining <= 0) continue;
      if (rule.share !== undefined && this.random() >= rule.share) continue;
      if (rule.remaining !== undefined) rule.remaining--;
      action = rule.action;
    }
    this.rules = this.rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return action === undefined ? { delayMs } : { delayMs, action };
  }

  private add(rule: Omit<Rule, "id" | "path"> & { path?: string | undefined }): number {
    const id = this.nextId++;
    const { path, ...rest } = rule;
    const compiled: Rule = { ...rest, id };
    if (path !== undefined) compiled.path = globToRegExp(path);
    if (compiled.method === undefined) delete compiled.method;
    this.rules.push(compiled);
    return id;
  }

  private matches(rule: Rule, method: string, fullPath: string, endpointPath: string | undefined): boolean {
    if (rule.method !== undefined && rule.method !== method) return false;
    if (rule.path === undefined) return true;
    return rule.path.test(fullPath) || (endpointPath !== undefined && rule.path.test(endpointPath));
  }
}
