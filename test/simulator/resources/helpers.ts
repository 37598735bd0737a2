/** In-process calls to the simulator's resource handlers, with a clock the test controls. */
import { expect } from "vitest";
import type { HttpMethod } from "../../../src/rest-spec/endpoints.js";
import { endpointAvailable } from "../../../src/rest-spec/versions.js";
import { parseQuery } from "../../../src/simulator/query/index.js";
import { findHandler } from "../../../src/simulator/resources/index.js";
import { createState, type SimState, type StateOptions } from "../../../src/simulator/state.js";
import { SimHttpError, type SimResult } from "../../../src/simulator/types.js";

export const T0 = Date.UTC(2024, 2, 1, 12, 0, 0);
export const GIB = 1024 ** 3;
export const TIB = 1024 ** 4;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface TestClock {
  now: number;
  advance(ms: number): void;
}

export function sim(
  scenario: StateOptions["scenario"] = "demo",
  seed = 7,
): { state: SimState; clock: TestClock } {
  const clock: TestClock = {
    now: T0,
    advance(ms) {
      this.now += ms;
    },
  };
  const state = createState({ scenario, clock: () => clock.now, arrayName: "fb-test", seed });
  return { state, clock };
}

export interface CallOpts {
  version?: string;
  query?: string;
  body?: unknown;
  user?: string;
}

/** Calls the handler the front end would call, after the same endpoint/version gate it applies. */
export function call(state: SimState, method: HttpMethod, path: string, opts: CallOpts = {}): SimResult {
  const version = opts.version ?? "1.12";
  if (!endpointAvailable(method, path, version))
    throw new Error(`test bug: ${method} ${path} not in REST ${version}`);
  const handler = findHandler(method, path);
  if (!handler) throw new Error(`no handler for ${method} ${path}`);
  const result = handler(
    {
      method,
      path,
      version,
      query: parseQuery(opts.query ?? ""),
      body: opts.body,
      user: opts.user ?? "pureuser",
    },
    state,
  );
  if (result instanceof Promise) throw new Error("handlers are synchronous");
  return result;
}

// biome-ignore lint/suspicious/noExplicitAny: test access to free-form JSON items
export type Item = Record<string, any>;

export interface Envelope {
  pagination_info: { continuation_token: string | null; total_item_count: number };
  total?: Item | Item[];
  items: Item[];
}

export function list(state: SimState, path: string, query = "", version = "1.12"): Envelope {
  const r = call(state, "GET", path, { query, version });
  expect(r.envelope).toBeDefined();
  return r.envelope as Envelope;
}

export function items(r: SimResult): Item[] {
  expect(r.items).toBeDefined();
  return r.items as Item[];
}

/** The 400 (or other) the call is refused with; fails the test when it succeeds. */
export function refused(
  state: SimState,
  method: HttpMethod,
  path: string,
  opts: CallOpts = {},
): SimHttpError {
  try {
    call(state, method, path, opts);
  } catch (err) {
    if (err instanceof SimHttpError) return err;
    throw err;
  }
  throw new Error(`expected ${method} ${path}?${opts.query ?? ""} to be refused`);
}

export function expect400(
  state: SimState,
  method: HttpMethod,
  path: string,
  opts: CallOpts,
  message: RegExp,
): void {
  const err = refused(state, method, path, opts);
  expect(err.status).toBe(400);
  expect(err.message).toMatch(message);
}

export function q(params: Record<string, string | number | boolean>): string {
  return new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
}
