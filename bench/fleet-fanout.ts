/**
 * `space --array all` over N configured arrays, each answering after `--latency` ms (one simulator serves every
 * array name, over real HTTPS on loopback), through the real pipeline and pool with the default bound on sockets
 * (array_pool.max_sockets). Prints and writes (`--out`) how long the answer took, cold (every array logs in) and
 * warm (sessions in place: the goal's case), and the most sockets open at once, counted by the pool and by the
 * simulator. Run by bench/fleet.ts at each fleet size.
 *
 * The simulator runs in a child process, as in the load test and bench/alerts-polling.ts: in this process its
 * side of every TLS handshake and request shared one event loop with the bot, and the answer time was the two
 * of them together. The bot's CPU time for the answer is printed too.
 *   node dist/bench/fleet-fanout.js --arrays 1000 --latency 100 --out /tmp/fanout.json
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { RESOURCES } from "../commands/index.js";
import { configSchema } from "../src/config/schema.js";
import { personActor } from "../src/core/access/actors.js";
import { createMemoryPendingStore } from "../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../src/core/audit/audit.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import { createPipeline } from "../src/core/pipeline/pipeline.js";
import { createArrayPool, POOL_DEFAULTS } from "../src/flashblade/pool.js";
import { silentLogger } from "../src/logger.js";
import { simulatedArrayConfig, startSimulator } from "../src/simulator/index.js";
import { childExecArgv } from "./heap.js";
import { startProfile } from "./profile.js";

export interface FanOutMeasure {
  arrays: number;
  latencyMs: number;
  coldMs: number;
  warmMs: number;
  /** Arrays in the answer's table, warm (all of them when every array answered in time). */
  answered: number;
  peakSockets: number;
  simPeakConnections: number;
  bound: number;
}

type FromSim =
  | { url: string; ca: string }
  | { maxConnections: number; requests: Record<string, number> }
  | { cpuMs: number };

/** The child: one simulator answering every name after `latencyMs`, its peak connections asked for at the end. */
async function serveFleet(latencyMs: number): Promise<void> {
  const sim = await startSimulator({ arrayName: "fleet", scenario: "demo" });
  sim.control.addLatency({ ms: latencyMs });
  process.send?.({ url: sim.url, ca: sim.ca } satisfies FromSim);
  process.on("message", async (m) => {
    if (m === "cpu") {
      const c = process.cpuUsage();
      process.send?.({ cpuMs: (c.user + c.system) / 1000 } satisfies FromSim);
    }
    if (m === "stats")
      process.send?.({
        maxConnections: sim.control.stats().maxConnections,
        requests: sim.control.stats().requests,
      } satisfies FromSim);
    if (m === "close") {
      await sim.close();
      process.exit(0);
    }
  });
}

const { values } = parseArgs({
  options: {
    arrays: { type: "string", default: "1000" },
    latency: { type: "string", default: "100" },
    out: { type: "string" },
    serve: { type: "boolean", default: false },
    /** The bound on sockets (default: the pool's, array_pool.max_sockets): to see what a larger one buys. */
    "max-sockets": { type: "string" },
    /** A CPU profile of the warm answer only, written to this file. */
    profile: { type: "string" },
  },
});
const n = Number(values.arrays);
const latencyMs = Number(values.latency);
if (values.serve) {
  await serveFleet(latencyMs);
} else {
  await measure();
}

async function measure(): Promise<void> {
  const names = Array.from({ length: n }, (_, i) => `fb-${String(i).padStart(4, "0")}`);
  const child = fork(new URL(import.meta.url).pathname, ["--serve", "--latency", String(latencyMs)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: childExecArgv(),
  });
  const next = () => new Promise<FromSim>((resolve) => child.once("message", (m) => resolve(m as FromSim)));
  const sim = (await next()) as { url: string; ca: string };
  const logger = silentLogger();
  // Each call's start and end (ms since the warm answer began), for where the warm answer's time goes.
  let calls: { array: string; start: number; end: number }[] | undefined;
  let t0Warm = 0;
  const pool = createArrayPool(
    names.map((name) => simulatedArrayConfig(name, sim)),
    {
      logger,
      maxSockets: Number(values["max-sockets"] ?? POOL_DEFAULTS.maxSockets),
      onCall: (e) => {
        const end = performance.now() - t0Warm;
        calls?.push({ array: e.array, start: end - e.ms, end });
      },
    },
  );
  const config = configSchema.parse({
    arrays: names.map((name) => ({ name, address: sim.url, api_token_env: "T" })),
    access: { default_role: "viewer" },
  });
  const pipeline = createPipeline({
    registry: createRegistry(RESOURCES),
    pool,
    config,
    identity: { groupsOf: async () => [], isRestricted: async () => false },
    store: createMemoryPendingStore(),
    audit: memoryAuditSink(),
    logger,
    now: Date.now,
  });
  const actor = personActor("UBENCH", "CBENCH");
  const timed = async (): Promise<{ ms: number; cpuMs: number; rows: number }> => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const effects = await pipeline.handleCommand({ text: "space --array all", actor });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const reply = effects.find((e) => e.kind === "reply");
    const table = reply?.kind === "reply" ? reply.message.blocks.find((b) => b.type === "table") : undefined;
    const rows = table?.type === "table" ? (table.totalRows ?? table.rows.length) : 0;
    return { ms, cpuMs, rows };
  };
  const simCpu = async () => {
    child.send("cpu");
    return ((await next()) as { cpuMs: number }).cpuMs;
  };
  const simStatsNow = async () => {
    child.send("stats");
    return (await next()) as { maxConnections: number; requests: Record<string, number> };
  };
  const cold = await timed();
  const afterCold = { ...pool.sockets().handshakes };
  const requestsBefore = (await simStatsNow()).requests;
  const simBefore = await simCpu();
  const profiler = await startProfile(values.profile);
  calls = [];
  t0Warm = performance.now();
  const warm = await timed();
  const warmCalls = calls;
  calls = undefined;
  await profiler.stop();
  const simWarmMs = (await simCpu()) - simBefore;
  const simStats = await simStatsNow();
  // What the warm answer asked each array, as the simulator counted it.
  const warmRequests = Object.entries(simStats.requests)
    .map(([k, v]) => [k, v - (requestsBefore[k] ?? 0)] as const)
    .filter(([, v]) => v > 0);
  const m: FanOutMeasure = {
    arrays: n,
    latencyMs,
    coldMs: cold.ms,
    warmMs: warm.ms,
    answered: warm.rows,
    peakSockets: pool.sockets().peak,
    simPeakConnections: simStats.maxConnections,
    bound: pool.sockets().max,
  };
  const shakes = pool.sockets().handshakes;
  console.log(
    `space --array all over ${n} arrays, ${latencyMs} ms each: cold ${cold.ms.toFixed(0)} ms, warm ${warm.ms.toFixed(0)} ms (${warm.rows} arrays in the table); peak sockets ${m.peakSockets} (the simulator saw ${m.simPeakConnections}), bound ${m.bound}`,
  );
  console.log(
    `the bot's CPU: cold ${cold.cpuMs.toFixed(0)} ms, warm ${warm.cpuMs.toFixed(0)} ms; TLS handshakes cold ${afterCold.full} full and ${afterCold.resumed} resumed, warm ${shakes.full - afterCold.full} full and ${shakes.resumed - afterCold.resumed} resumed; the simulator's CPU warm ${simWarmMs.toFixed(0)} ms`,
  );
  const byArray = new Map<string, { first: number; last: number }>();
  for (const c of warmCalls) {
    const a = byArray.get(c.array);
    byArray.set(c.array, {
      first: Math.min(a?.first ?? c.start, c.start),
      last: Math.max(a?.last ?? 0, c.end),
    });
  }
  const q = (xs: number[], p: number) =>
    xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
  const firsts = [...byArray.values()].map((a) => a.first);
  const spans = [...byArray.values()].map((a) => a.last - a.first);
  const durations = warmCalls.map((c) => c.end - c.start);
  console.log(
    `warm answer, from the command: an array's calls began at p50 ${q(firsts, 0.5).toFixed(0)} / p90 ${q(firsts, 0.9).toFixed(0)} / last ${q(firsts, 1).toFixed(0)} ms and took p50 ${q(spans, 0.5).toFixed(0)} / p99 ${q(spans, 0.99).toFixed(0)} ms (first call to last answer); each call p50 ${q(durations, 0.5).toFixed(0)} / p99 ${q(durations, 0.99).toFixed(0)} ms (limiter, socket and answer); last answer ${Math.max(0, ...warmCalls.map((c) => c.end)).toFixed(0)} ms`,
  );
  console.log(
    `requests the arrays answered for the warm answer: ${warmRequests.reduce((a, [, v]) => a + v, 0)} (${warmRequests.map(([k, v]) => `${k} ${v}`).join(", ")})`,
  );
  if (values.out) writeFileSync(values.out, `${JSON.stringify(m)}\n`);
  await pool.close();
  child.send("close");
}
