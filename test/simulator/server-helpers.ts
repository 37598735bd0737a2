import type { IncomingHttpHeaders } from "node:http";
import { Agent, request } from "undici";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";
import { onWire } from "../helpers/wire.js";

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: string;
}

/** A client for one simulator over real HTTPS, trusting only the simulator's own certificate. */
export interface SimClient {
  sim: Simulator;
  agent: Agent;
  /** `path` is relative to the simulator's root, e.g. "/api/1.12/arrays?names=x", exactly as it goes on the wire. */
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  /**
   * Sends a request written as a 1.x line (`POST /api/1.12/file-systems {"name":"fs1"}`) as it reads on the
   * version the suite's simulated arrays speak (test/helpers/wire.ts), for behaviour that is the same in both
   * generations.
   */
  send(line1x: string, headers?: Record<string, string>): Promise<Reply>;
  /** Logs in with the header form and returns the session token. */
  login(apiToken?: string): Promise<string>;
  close(): Promise<void>;
}

export async function openSim(opts: SimulatorOptions = {}): Promise<SimClient> {
  const sim = await startSimulator(opts);
  return clientFor(sim);
}

export function clientFor(sim: Simulator): SimClient {
  const agent = new Agent({ connect: { ca: sim.ca } });
  const call = async (method: string, path: string, opts: CallOptions = {}): Promise<Reply> => {
    const res = await request(`${sim.url}${path}`, {
      method: method as "GET",
      headers: opts.headers ?? {},
      body: opts.body ?? null,
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
  };
  return {
    sim,
    agent,
    call,
    send(line1x, headers = {}) {
      const [, method = "", path = "", body] = /^(\S+) (\S+)(?: (.*))?$/s.exec(onWire(line1x)) ?? [];
      const json: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
      return call(method, path, {
        headers: { ...json, ...headers },
        ...(body === undefined ? {} : { body }),
      });
    },
    async login(apiToken = "T-demo") {
      const r = await call("POST", "/api/login", { headers: { "api-token": apiToken } });
      const token = r.headers["x-auth-token"];
      if (r.status !== 200 || typeof token !== "string")
        throw new Error(`login failed: ${r.status} ${r.text}`);
      return token;
    },
    async close() {
      await agent.close();
      await sim.close();
    },
  };
}

/** The first error message of a 1.x error body. */
export function errorMessage(reply: Reply): string {
  const body = reply.json() as { errors?: { message?: string }[] };
  return body.errors?.[0]?.message ?? "";
}

/** A controllable clock: tests move time instead of waiting. */
export function manualClock(start = 1_700_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

/** An injected sleep that records requested waits and resolves only when the test says so. */
export function manualSleep(): {
  sleep: (ms: number) => Promise<void>;
  waits: number[];
  /** Resolves once `n` waits are pending. */
  pending(n: number): Promise<void>;
  releaseAll(): void;
} {
  const waits: number[] = [];
  const resolvers: (() => void)[] = [];
  const watchers: { n: number; resolve: () => void }[] = [];
  const notify = () => {
    for (const w of [...watchers]) {
      if (resolvers.length >= w.n) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  return {
    waits,
    sleep(ms: number) {
      waits.push(ms);
      return new Promise<void>((resolve) => {
        resolvers.push(resolve);
        notify();
      });
    },
    pending(n: number) {
      return new Promise<void>((resolve) => {
        watchers.push({ n, resolve });
        notify();
      });
    },
    releaseAll() {
      for (const r of resolvers.splice(0)) r();
    },
  };
}
