import type { Logger } from "pino";
import type { z } from "zod";
import { UserFacingError } from "../errors.js";
import { STATE_OPS, type StateControlInput, type StateControlOp } from "./control-state.js";
import {
  type FailureFault,
  type FaultPlan,
  failureFaultSchema,
  type LatencyFault,
  latencyFaultSchema,
  type ResetFault,
  resetFaultSchema,
} from "./faults.js";
import type { AlertRec } from "./models/alert.js";
import type { RequestLog, SimStats } from "./request-log.js";
import type { SessionStore } from "./sessions.js";
import type { SimState } from "./state.js";
import * as sc from "./state-control.js";

/** What the front end lends the control API. */
export interface ControlDeps {
  state: SimState;
  faults: FaultPlan;
  sessions: SessionStore;
  log: RequestLog;
  /** Stops listening and drops every connection. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  goUp(): Promise<void>;
  isDown(): boolean;
  sleep(ms: number): Promise<void>;
  logger: Logger;
}

/** Faults and observations for tests and demos; every input is validated as at any other boundary. */
export interface SimControl {
  /** Adds latency to matching requests; returns the rule id. */
  addLatency(fault: LatencyFault): number;
  /** Answers matching requests (a share, or the next `count`) with an error status. */
  failRequests(fault: FailureFault): number;
  /** Destroys the connection of matching requests without answering. */
  resetConnections(fault: ResetFault): number;
  /** Removes one fault rule, or all of them. */
  clearFaults(id?: number): void;
  /** Restarts the fault dice from `seed`. */
  reseed(seed: number): void;
  /** The array goes away: new connections are refused and open ones dropped. With `forMs`, it returns by itself. */
  down(opts?: { forMs?: number }): Promise<void>;
  up(): Promise<void>;
  readonly isDown: boolean;
  /** Resolves when the array is (back) up. */
  whenUp(): Promise<void>;
  /** Ends every session, as a reboot or an admin would; returns how many were open. */
  invalidateSessions(): number;
  activeSessions(): number;
  stats(): SimStats;
  resetStats(): void;
  /**
   * Changes the simulated world (alerts, usage, link and hardware health…): `op` is one of control-state.ts's
   * operations; the input is validated; unknown objects throw a 404 SimHttpError.
   */
  stateControl<K extends StateControlOp>(op: K, input: StateControlInput<K>): unknown;
  raiseAlert(alert: sc.NewAlert): AlertRec;
  updateAlert(index: number, change: sc.AlertChange): AlertRec;
  /** Closes an alert, as the array does when the condition clears. */
  clearAlert(index: number): AlertRec;
  /** Sets a file system's logical usage in bytes. */
  setFileSystemUsage(
    name: string,
    bytes: number,
    opts?: { snapshots?: number; dataReduction?: number },
  ): void;
}

export function checked<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const why = r.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ");
  throw new UserFacingError("SIM_BAD_CONTROL_INPUT", `Invalid ${what}: ${why}`);
}

export function createControl(deps: ControlDeps): SimControl {
  let waiters: (() => void)[] = [];
  const goUp = async () => {
    await deps.goUp();
    if (deps.isDown()) return;
    for (const w of waiters) w();
    waiters = [];
  };
  const control: SimControl = {
    addLatency: (f) => deps.faults.addLatency(checked(latencyFaultSchema, f, "latency fault")),
    failRequests: (f) => deps.faults.addFailure(checked(failureFaultSchema, f, "failure fault")),
    resetConnections: (f) => deps.faults.addReset(checked(resetFaultSchema, f, "connection-reset fault")),
    clearFaults: (id) => deps.faults.clear(id),
    reseed: (seed) => deps.faults.reseed(seed),
    async down(opts = {}) {
      if (opts.forMs !== undefined && !(Number.isInteger(opts.forMs) && opts.forMs > 0)) {
        throw new UserFacingError(
          "SIM_BAD_CONTROL_INPUT",
          "Invalid outage: forMs must be a positive integer.",
        );
      }
      await deps.goDown();
      if (opts.forMs !== undefined) {
        // The front end ignores goUp after close(), so a pending outage timer cannot revive a closed simulator.
        void deps
          .sleep(opts.forMs)
          .then(() => (deps.isDown() ? goUp() : undefined))
          .catch((err: unknown) =>
            deps.logger.error({ err }, "simulator could not come back up after an outage"),
          );
      }
    },
    up: goUp,
    get isDown() {
      return deps.isDown();
    },
    whenUp: () => (deps.isDown() ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    invalidateSessions: () => deps.sessions.invalidateAll(),
    activeSessions: () => deps.sessions.activeCount(),
    stats: () => deps.log.stats(),
    resetStats: () => deps.log.reset(),
    stateControl(op, input) {
      const entry = STATE_OPS[op] as { schema: z.ZodType; run(state: SimState, input: unknown): unknown };
      return entry.run(deps.state, checked(entry.schema, input, `${op} input`));
    },
    raiseAlert: (alert) => sc.raiseAlert(deps.state, alert),
    updateAlert: (index, change) => sc.updateAlert(deps.state, index, change),
    clearAlert: (index) => sc.closeAlert(deps.state, index),
    setFileSystemUsage: (name, bytes, opts) => sc.setFileSystemUsage(deps.state, name, bytes, opts),
  };
  return control;
}
