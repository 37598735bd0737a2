import { z } from "zod";
import { BotError } from "../errors.js";
import { type ApiResponse, errorResponse } from "./api-response.js";
import { checked, type SimControl } from "./control.js";
import { isStateControlOp, STATE_OPS, type StateControlInput, type StateControlOp } from "./control-state.js";
import { failureFaultSchema, latencyFaultSchema, resetFaultSchema } from "./faults.js";
import { SimHttpError } from "./types.js";

/** URL prefix of the HTTP control interface; outside /api so no array client can reach it by accident. */
export const CONTROL_PREFIX = "/_control";

export interface ControlAnswer extends ApiResponse {
  /** Runs once the answer is on the wire (an outage must not swallow its own acknowledgement). */
  after?: () => Promise<void>;
}

type Op = (control: SimControl, body: unknown) => ControlAnswer | Promise<ControlAnswer>;

const idBody = z.strictObject({ id: z.number().int().positive().optional() });
const seedBody = z.strictObject({ seed: z.number().int() });
const downBody = z.strictObject({ forMs: z.number().int().positive().optional() });
const emptyBody = z.strictObject({});

const ok = (body: unknown = { ok: true }): ControlAnswer => ({ status: 200, body });

/** `POST /_control/<op>` with a JSON body, `GET /_control/stats`. */
const POST_OPS: Record<string, Op> = {
  latency: (c, b) => ok({ id: c.addLatency(checked(latencyFaultSchema, b, "latency fault")) }),
  fail: (c, b) => ok({ id: c.failRequests(checked(failureFaultSchema, b, "failure fault")) }),
  "reset-connections": (c, b) =>
    ok({ id: c.resetConnections(checked(resetFaultSchema, b, "connection-reset fault")) }),
  "clear-faults": (c, b) => {
    c.clearFaults(checked(idBody, b, "clear-faults body").id);
    return ok();
  },
  seed: (c, b) => {
    c.reseed(checked(seedBody, b, "seed body").seed);
    return ok();
  },
  down: (c, b) => {
    const { forMs } = checked(downBody, b, "down body");
    return { ...ok(), after: () => c.down(forMs === undefined ? {} : { forMs }) };
  },
  // Reaching this op at all means the array is up; kept so scripts can be symmetric.
  up: () => ok(),
  "invalidate-sessions": (c, b) => {
    checked(emptyBody, b, "invalidate-sessions body");
    return ok({ invalidated: c.invalidateSessions() });
  },
  "reset-stats": (c, b) => {
    checked(emptyBody, b, "reset-stats body");
    c.resetStats();
    return ok();
  },
};

const GET_OPS: Record<string, Op> = {
  stats: (c) => ok(c.stats()),
  sessions: (c) => ok({ active: c.activeSessions() }),
};

export async function handleControl(
  control: SimControl,
  method: string,
  op: string,
  bodyText: string,
): Promise<ControlAnswer> {
  const table = method === "GET" ? GET_OPS : method === "POST" ? POST_OPS : undefined;
  const handler: Op | undefined =
    method === "POST" && isStateControlOp(op)
      ? (c, b) => ok(c.stateControl(op, b as StateControlInput<StateControlOp>))
      : table?.[op];
  if (table === undefined || handler === undefined) {
    const known = [
      ...Object.keys(GET_OPS).map((o) => `GET ${o}`),
      ...Object.keys(POST_OPS).map((o) => `POST ${o}`),
      ...Object.keys(STATE_OPS).map((o) => `POST ${o}`),
    ];
    return errorResponse(404, `No control operation ${method} ${op}. Known: ${known.join(", ")}.`, op);
  }
  let body: unknown = {};
  if (bodyText.trim() !== "") {
    try {
      body = JSON.parse(bodyText);
    } catch {
      return errorResponse(400, "The control request body is not valid JSON.", op);
    }
  }
  try {
    return await handler(control, body);
  } catch (err) {
    if (err instanceof BotError) return errorResponse(400, err.message, op);
    if (err instanceof SimHttpError) return errorResponse(err.status, err.message, err.context ?? op);
    throw err;
  }
}
