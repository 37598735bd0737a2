/**
 * Array client benchmark against the simulator (run in a worker thread, so client and array do not share an
 * event loop):
 *  (a) median time of one list call through the pool vs a bare undici request for the same URL;
 *  (b) logins per array for 1,000 concurrent calls to a cold array;
 *  (c) one call fanned out to 50 arrays with 100 ms added latency each, vs the same call to one of them.
 * Writes bench/results/client.json (goals checked from the figures by the report).
 * Run: npm run bench:client [-- --iterations N --rounds R --fan-out-rounds F]
 */
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Pool } from "undici";
import type { ResolvedArrayConfig } from "../src/config/arrays.js";
import { Secret } from "../src/config/secret.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import { fileSystemSchema } from "../src/flashblade/schemas.js";
import { silentLogger } from "../src/logger.js";
import { createMetrics } from "../src/ops/metrics.js";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { selfSignedCertificate } from "../src/simulator/tls.js";
import { type Figure, withGoal, writeResult } from "./report/result.js";

const TOKEN = "T-bench-0000";

interface FleetSpec {
  count: number;
  latencyMs: number;
  scenario: "demo" | "empty";
  /** REST versions the simulators serve (the client speaks the newest); 1.x unless a measure says otherwise. */
  versions?: string;
}
interface FleetInfo {
  urls: string[];
  ca: string;
}

// ---- worker side: a fleet of simulators ----
async function runFleet(spec: FleetSpec): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const tls = await selfSignedCertificate();
  const sims: Simulator[] = [];
  for (let i = 0; i < spec.count; i++) {
    const sim = await startSimulator({
      tls,
      scenario: spec.scenario,
      arrayName: `sim-${i + 1}`,
      apiTokens: [{ token: TOKEN, username: "pureuser" }],
      versions: spec.versions ?? "1.0-1.12",
    });
    if (spec.latencyMs > 0) sim.control.addLatency({ ms: spec.latencyMs, path: "/api/1.*" });
    sims.push(sim);
  }
  port.postMessage({ urls: sims.map((s) => s.url), ca: tls.cert } satisfies FleetInfo);
  port.on("message", async (msg: string) => {
    if (msg === "logins") port.postMessage(sims.map((s) => s.control.stats().logins));
    if (msg === "close") {
      await Promise.all(sims.map((s) => s.close()));
      port.close();
    }
  });
}

// ---- main side ----
async function startFleet(spec: FleetSpec) {
  const worker = new Worker(new URL(import.meta.url), { workerData: spec });
  const [info] = (await once(worker, "message")) as [FleetInfo];
  return {
    ...info,
    async logins(): Promise<number[]> {
      worker.postMessage("logins");
      const [n] = (await once(worker, "message")) as [number[]];
      return n;
    },
    async close() {
      worker.postMessage("close");
      await once(worker, "exit");
    },
  };
}

function config(name: string, url: string, ca: string): ResolvedArrayConfig {
  return {
    name,
    origin: url,
    apiToken: new Secret(TOKEN),
    ca,
    insecure: false,
    tags: [],
    connections: 8,
    rate: { maxConcurrent: 8, minSpacingMs: 0, maxQueue: 5000 },
    timeouts: { connectMs: 10_000, readMs: 30_000 },
    downAfterFailures: 3,
  };
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  return xs.flatMap((x, i) =>
    permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The variants of (a), timed side by side. */
interface Variant {
  name: "bare" | "pool" | "raw";
  run: () => Promise<unknown>;
}

/**
 * (a) One list call through the pool (as Slack mode runs it: item validation and the metrics observer
 * recording into a Prometheus registry) vs a bare undici request for the same URL with the same headers,
 * body read and parsed. Fairness: after a warm-up, each iteration runs every variant once, cycling through
 * every order, so drift, GC and other tenants of the machine fall on all of them alike; the figure is the
 * median over rounds of each round's pool/bare ratio of medians, with the spread of those ratios alongside.
 */
async function listOverhead(iterations: number, rounds: number, version = "1.12") {
  // The array serves one generation, so the pool speaks `version` and the bare request names the same URL.
  const versions = version.startsWith("2.") ? "2.0-2.28" : "1.0-1.12";
  const fleet = await startFleet({ count: 1, latencyMs: 0, scenario: "demo", versions });
  const url = fleet.urls[0] ?? "";
  const metrics = createMetrics({ collectDefault: false });
  const pool = createArrayPool([config("a", url, fleet.ca)], {
    logger: silentLogger(),
    onCall: metrics.arrayCalls.record,
  });
  const client = pool.get("a");
  // Bare: one undici Pool, a session token fetched once, the same GET with the same headers.
  const bare = new Pool(url, { connections: 8, connect: { ca: fleet.ca } });
  const login = await bare.request({ method: "POST", path: "/api/login", headers: { "api-token": TOKEN } });
  await login.body.text();
  const headers = {
    accept: "application/json",
    "user-agent": "array-chatops/0.1",
    "x-auth-token": String(login.headers["x-auth-token"]),
  };
  const variants: Variant[] = [
    {
      name: "bare",
      run: async () => {
        const res = await bare.request({ method: "GET", path: `/api/${version}/file-systems`, headers });
        return JSON.parse(await res.body.text()) as unknown;
      },
    },
    { name: "pool", run: () => client.get("/file-systems", { schema: fileSystemSchema }) },
    // The same call without item validation, to show the pipeline's cost apart from validation's.
    { name: "raw", run: () => client.get("/file-systems", { schema: fileSystemSchema }) },
  ];
  const items = (await client.get("/file-systems", { schema: fileSystemSchema })).items.length;
  for (let i = 0; i < 500; i++) for (const v of variants) await v.run();

  // Every order in turn, so each variant runs first, last, and after each other one equally often: work a
  // call leaves behind (a GC, a socket's idle bookkeeping) then lands on all variants alike.
  const orders = permutations(variants);
  const perRound = Math.max(orders.length, Math.floor(iterations / rounds));
  const ratios = { pool: [] as number[], raw: [] as number[] };
  const medians = { bare: [] as number[], pool: [] as number[], raw: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const times = { bare: [] as number[], pool: [] as number[], raw: [] as number[] };
    for (let i = 0; i < perRound; i++) {
      for (const v of orders[i % orders.length] as Variant[]) times[v.name].push(await timeIt(v.run));
    }
    const m = { bare: median(times.bare), pool: median(times.pool), raw: median(times.raw) };
    for (const k of ["bare", "pool", "raw"] as const) medians[k].push(m[k]);
    ratios.pool.push(m.pool / m.bare);
    ratios.raw.push(m.raw / m.bare);
  }
  await bare.close();
  await pool.close();
  await fleet.close();
  const spread = (xs: number[]) => [Math.min(...xs), Math.max(...xs)].map((x) => (x - 1) * 100);
  return {
    medians,
    ratios,
    bare: median(medians.bare),
    pool: median(medians.pool),
    raw: median(medians.raw),
    poolOverhead: (median(ratios.pool) - 1) * 100,
    rawOverhead: (median(ratios.raw) - 1) * 100,
    poolSpread: spread(ratios.pool),
    samples: perRound * rounds,
    items,
  };
}

async function coldLogins(calls: number) {
  const fleet = await startFleet({ count: 1, latencyMs: 0, scenario: "demo" });
  const pool = createArrayPool([config("a", fleet.urls[0] ?? "", fleet.ca)], { logger: silentLogger() });
  const client = pool.get("a");
  const ms = await timeIt(() => Promise.all(Array.from({ length: calls }, () => client.get("/arrays"))));
  const [logins] = await fleet.logins();
  await pool.close();
  await fleet.close();
  return { logins: logins ?? -1, ms };
}

async function fanOut(arrays: number, latencyMs: number, rounds: number) {
  const fleet = await startFleet({ count: arrays, latencyMs, scenario: "demo" });
  const pool = createArrayPool(
    fleet.urls.map((u, i) => config(`sim-${i + 1}`, u, fleet.ca)),
    { logger: silentLogger() },
  );
  const all = pool.list();
  const one = all[0];
  if (!one) throw new Error("no arrays");
  // Warm: sessions and versions negotiated, connections open.
  await Promise.all(all.map((c) => c.get("/file-systems", { schema: fileSystemSchema })));
  // The same fan-out with bare undici (one Pool and session per array), to separate the client's cost from
  // the machine's: 50 TLS exchanges take CPU whatever sends them.
  const bares = await Promise.all(
    fleet.urls.map(async (u) => {
      const p = new Pool(u, { connections: 8, connect: { ca: fleet.ca } });
      const login = await p.request({ method: "POST", path: "/api/login", headers: { "api-token": TOKEN } });
      await login.body.text();
      return { p, session: String(login.headers["x-auth-token"]) };
    }),
  );
  const bareList = async (b: { p: Pool; session: string }) => {
    const res = await b.p.request({
      method: "GET",
      path: "/api/1.12/file-systems",
      headers: { accept: "application/json", "user-agent": "array-chatops/0.1", "x-auth-token": b.session },
    });
    return JSON.parse(await res.body.text()) as unknown;
  };
  await Promise.all(bares.map(bareList));
  const single: number[] = [];
  const fanned: number[] = [];
  const bareFanned: number[] = [];
  for (let r = 0; r < rounds; r++) {
    single.push(await timeIt(() => one.get("/file-systems", { schema: fileSystemSchema })));
    fanned.push(
      await timeIt(() => Promise.all(all.map((c) => c.get("/file-systems", { schema: fileSystemSchema })))),
    );
    bareFanned.push(await timeIt(() => Promise.all(bares.map(bareList))));
  }
  await Promise.all(bares.map((b) => b.p.close()));
  await pool.close();
  await fleet.close();
  return {
    single: median(single),
    fanned: median(fanned),
    bareFanned: median(bareFanned),
    rounds: { single, fanned, bareFanned },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      iterations: { type: "string", default: "3000" },
      rounds: { type: "string", default: "15" },
      "fan-out-rounds": { type: "string", default: "15" },
    },
  });
  const a = await listOverhead(Number(values.iterations), Number(values.rounds));
  const a2 = await listOverhead(Number(values.iterations), Number(values.rounds), "2.28");
  const b = await coldLogins(1000);
  const c = await fanOut(50, 100, Number(values["fan-out-rounds"]));
  const pct = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)} %`;
  const rows: [string, string, string, string][] = [
    ["measure", "result", "goal", "ok"],
    [
      `(a) list call, ${a.items} items: pool vs bare undici (${a.samples} interleaved samples each)`,
      `${a.pool.toFixed(3)} ms vs ${a.bare.toFixed(3)} ms (${pct(a.poolOverhead)}; ` +
        `rounds ${pct(a.poolSpread[0] ?? 0)} to ${pct(a.poolSpread[1] ?? 0)})`,
      "< +10 %",
      a.poolOverhead < 10 ? "yes" : "NO",
    ],
    [
      `    the same on a REST 2.28 array (${a2.samples} samples each)`,
      `${a2.pool.toFixed(3)} ms vs ${a2.bare.toFixed(3)} ms (${pct(a2.poolOverhead)})`,
      "< +10 %",
      a2.poolOverhead < 10 ? "yes" : "NO",
    ],
    [
      "    same call without item validation (client.get)",
      `${a.raw.toFixed(3)} ms (${pct(a.rawOverhead)})`,
      "",
      "",
    ],
    [
      "(b) logins for 1,000 concurrent calls to a cold array",
      `${b.logins} (all calls done in ${b.ms.toFixed(0)} ms)`,
      "1",
      b.logins === 1 ? "yes" : "NO",
    ],
    [
      `(c) one call to 50 arrays, 100 ms latency each, vs one array (median of ${c.rounds.single.length})`,
      `${c.fanned.toFixed(1)} ms vs ${c.single.toFixed(1)} ms (${(c.fanned / c.single).toFixed(2)}x; ` +
        `bare undici fan-out ${c.bareFanned.toFixed(1)} ms)`,
      "< 1.5x",
      c.fanned / c.single < 1.5 ? "yes" : "NO",
    ],
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | "));
  const overhead = (xs: number[]) => xs.map((x) => (x - 1) * 100);
  const figures: Figure[] = [
    withGoal(
      {
        what: `client: one ${a.items}-item list call through the pool (zod validating every item), overhead over bare undici`,
        unit: "%",
        rounds: overhead(a.ratios.pool),
      },
      "<",
      10,
      "< 10 %",
    ),
    withGoal(
      {
        what: `client: the same list call on a REST 2.28 array (the dialect translating), overhead over bare undici`,
        unit: "%",
        rounds: overhead(a2.ratios.pool),
      },
      "<",
      10,
      "< 10 %",
    ),
    {
      what: "client: the same call through the pool without item validation, overhead over bare undici",
      unit: "%",
      rounds: overhead(a.ratios.raw),
      headline: true,
    },
    {
      what: `client: one ${a.items}-item list call through the pool`,
      unit: "ms",
      rounds: a.medians.pool,
      baseline: { what: "bare undici", rounds: a.medians.bare },
    },
    withGoal(
      {
        what: "client: logins for 1,000 concurrent calls to a cold array",
        unit: "count",
        rounds: [b.logins],
      },
      "=",
      1,
      "= 1",
    ),
    withGoal(
      {
        what: "client: fan-out of one call to 50 arrays with 100 ms latency each",
        unit: "ms",
        rounds: c.rounds.fanned,
        baseline: { what: "the same call to one of them", rounds: c.rounds.single },
      },
      "<",
      1.5,
      "< 1.5× one array",
      "ratio",
    ),
    {
      what: "client: the same fan-out with bare undici (one Pool and session per array)",
      unit: "ms",
      rounds: c.rounds.bareFanned,
    },
  ];
  writeResult({
    name: "client",
    title: "Array client and session pool (`bench/client.ts`)",
    command: "npm run bench:client",
    figures,
    notes: [
      `(a) ${a.samples} samples of each variant, interleaved in every order in turn; each round's figure is the ratio of the round's medians (pool / bare undici), and the overhead is the median over ${a.medians.bare.length} rounds. The pool's call records into a Prometheus registry as Slack mode does. (c) runs the fan-out ${c.rounds.single.length} times against 50 simulators in a worker thread.`,
    ],
  });
}

if (isMainThread) {
  await main();
} else {
  await runFleet(workerData as FleetSpec);
}
