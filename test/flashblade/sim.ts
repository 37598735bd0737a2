/** Starting simulators and pools over real HTTPS on loopback for the client's tests. */
import { afterAll, expect } from "vitest";
import type { ResolvedArrayConfig } from "../../src/config/arrays.js";
import { Secret } from "../../src/config/secret.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { RetryPolicy } from "../../src/flashblade/retry.js";
import type { ArrayPool, PoolDeps } from "../../src/flashblade/types.js";
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
  type TlsMaterial,
} from "../../src/simulator/index.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";
import { arrayConfig, captureLogger } from "./helpers.js";

export const API_TOKEN = "T-7d1e5c2a-9b8f-4e3d-a1c0-5f6e7d8c9b0a";
/** Session tokens are UUIDs; none may reach a log line. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let tls: Promise<TlsMaterial> | undefined;
export function sharedTls(): Promise<TlsMaterial> {
  tls ??= selfSignedCertificate();
  return tls;
}

const started: Simulator[] = [];
const pools: ArrayPool[] = [];

/** Every log line the client wrote in this test file; scanned for secrets when the file ends. */
export const logSink = captureLogger("debug");

export async function startSim(opts: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({
    tls: await sharedTls(),
    apiTokens: [{ token: API_TOKEN, username: "pureuser" }],
    scenario: "empty",
    ...opts,
  });
  started.push(sim);
  return sim;
}

export function simConfig(
  sim: Simulator,
  over: Partial<ResolvedArrayConfig> & { name?: string } = {},
): ResolvedArrayConfig {
  return arrayConfig({
    name: over.name ?? sim.arrayName,
    origin: sim.url,
    ca: sim.ca,
    apiToken: new Secret(API_TOKEN),
    ...over,
  });
}

export function poolOf(
  configs: ResolvedArrayConfig[],
  deps: Partial<PoolDeps> & { retry?: RetryPolicy } = {},
): ArrayPool {
  const pool = createArrayPool(configs, { logger: logSink.logger, ...deps });
  pools.push(pool);
  return pool;
}

/** Requests the simulator saw for `METHOD /api/<v>/path` (query strings decoded), oldest first. */
export function seen(sim: Simulator, method: string, fullPath: string): URLSearchParams[] {
  return sim.control
    .stats()
    .recent.filter((r) => r.method === method && r.path === fullPath)
    .map((r) => new URLSearchParams(r.query));
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await Promise.all(started.map((s) => s.close()));
  const leaks = logSink.lines.filter((l) => l.includes(API_TOKEN) || UUID.test(l));
  expect(leaks, "log lines carrying a token").toEqual([]);
  expect(logSink.lines.length).toBeGreaterThan(0);
});
