/**
 * `space --array all` over N configured arrays, each answering after `--latency` ms (one simulator serves every
 * array name, over real HTTPS on loopback), through the real pipeline and pool with the default bound on sockets
 * (array_pool.max_sockets). Prints and writes (`--out`) how long the answer took, cold (every array logs in) and
 * warm (sessions in place: the goal's case), and the most sockets open at once, counted by the pool and by the
 * simulator. Run by bench/fleet.ts at each fleet size.
 *   node dist/bench/fleet-fanout.js --arrays 1000 --latency 100 --out /tmp/fanout.json
 */
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

const { values } = parseArgs({
  options: {
    arrays: { type: "string", default: "1000" },
    latency: { type: "string", default: "100" },
    out: { type: "string" },
  },
});
const n = Number(values.arrays);
const latencyMs = Number(values.latency);
const names = Array.from({ length: n }, (_, i) => `fb-${String(i).padStart(4, "0")}`);
const sim = await startSimulator({ arrayName: "fleet", scenario: "demo" });
const logger = silentLogger();
const pool = createArrayPool(
  names.map((name) => simulatedArrayConfig(name, sim)),
  { logger, maxSockets: POOL_DEFAULTS.maxSockets },
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
sim.control.addLatency({ ms: latencyMs });
const actor = personActor("UBENCH", "CBENCH");
const timed = async (): Promise<{ ms: number; rows: number }> => {
  const t0 = performance.now();
  const effects = await pipeline.handleCommand({ text: "space --array all", actor });
  const ms = performance.now() - t0;
  const reply = effects.find((e) => e.kind === "reply");
  const table = reply?.kind === "reply" ? reply.message.blocks.find((b) => b.type === "table") : undefined;
  const rows = table?.type === "table" ? (table.totalRows ?? table.rows.length) : 0;
  return { ms, rows };
};
const cold = await timed();
const warm = await timed();
const m: FanOutMeasure = {
  arrays: n,
  latencyMs,
  coldMs: cold.ms,
  warmMs: warm.ms,
  answered: warm.rows,
  peakSockets: pool.sockets().peak,
  simPeakConnections: sim.control.stats().maxConnections,
  bound: pool.sockets().max,
};
console.log(
  `space --array all over ${n} arrays, ${latencyMs} ms each: cold ${cold.ms.toFixed(0)} ms, warm ${warm.ms.toFixed(0)} ms (${warm.rows} arrays in the table); peak sockets ${m.peakSockets} (the simulator saw ${m.simPeakConnections}), bound ${m.bound}`,
);
if (values.out) writeFileSync(values.out, `${JSON.stringify(m)}\n`);
await pool.close();
await sim.close();
