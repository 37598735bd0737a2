/**
 * Simulator benchmark: authenticated GET throughput over keep-alive HTTPS, and paging through a
 * 100,000-file-system listing with continuation tokens.
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/simulator.js [--requests N] [--file-systems N]
 */
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Pool } from "undici";
import { type SimulatorOptions, startSimulator } from "../src/simulator/index.js";
import { type Figure, writeResult } from "./report/result.js";

/**
 * The simulator runs in a worker thread so that the load generator does not share its event loop; what is
 * measured is the simulator, not the two competing for one thread.
 */
interface RemoteSim {
  url: string;
  ca: string;
  maxInFlight(): Promise<number>;
  close(): Promise<void>;
}

async function startRemote(opts: SimulatorOptions): Promise<RemoteSim & { startMs: number }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: opts });
  // A simulator that dies mid-run must fail the benchmark loudly, not leave a request pending forever.
  worker.on("error", (err) => {
    process.stderr.write(`simulator worker failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
  const [ready] = (await once(worker, "message")) as [{ url: string; ca: string; startMs: number }];
  return {
    ...ready,
    async maxInFlight() {
      worker.postMessage("stats");
      const [stats] = (await once(worker, "message")) as [{ maxInFlight: number }];
      return stats.maxInFlight;
    },
    async close() {
      worker.postMessage("close");
      await once(worker, "exit");
    },
  };
}

async function serveInWorker(): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const t0 = performance.now();
  const sim = await startSimulator(workerData as SimulatorOptions);
  port.postMessage({ url: sim.url, ca: sim.ca, startMs: performance.now() - t0 });
  port.on("message", (msg: string) => {
    if (msg === "stats") port.postMessage(sim.control.stats());
    if (msg === "close") void sim.close().then(() => port.close());
  });
}

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "32" },
    "file-systems": { type: "string", default: "100000" },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const FILE_SYSTEMS = Number(values["file-systems"]);

const print = (line = "") => process.stdout.write(`${line}\n`);
/** Figures for bench/results/simulator.json (one round each: the script measures once). */
const figures: Figure[] = [];

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = (x: number) => x.toFixed(2).padStart(9);

async function login(pool: Pool): Promise<string> {
  const r = await pool.request({ method: "POST", path: "/api/login", headers: { "api-token": "T-demo" } });
  await r.body.dump();
  const token = r.headers["x-auth-token"];
  if (r.statusCode !== 200 || typeof token !== "string") throw new Error(`login failed with ${r.statusCode}`);
  return token;
}

async function throughput(sim: RemoteSim): Promise<void> {
  const pool = new Pool(sim.url, { connections: CONCURRENCY, connect: { ca: sim.ca } });
  const token = await login(pool);
  const headers = { "x-auth-token": token, accept: "application/json" };
  const one = async () => {
    const r = await pool.request({ method: "GET", path: "/api/1.12/arrays", headers });
    await r.body.text();
    if (r.statusCode !== 200) throw new Error(`GET /arrays answered ${r.statusCode}`);
  };
  for (let i = 0; i < 500; i++) await one(); // warm-up: TLS handshakes, JIT
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t0 = performance.now();
        await one();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  print(
    `GET /api/1.12/arrays, ${REQUESTS} requests, concurrency ${CONCURRENCY}, keep-alive HTTPS (undici Pool)`,
  );
  print(`  throughput ${(REQUESTS / elapsed).toFixed(0)} req/s over ${elapsed.toFixed(2)} s`);
  print(
    `  latency ms  p50 ${percentile(latencies, 50).toFixed(2)}  p95 ${percentile(latencies, 95).toFixed(2)}  p99 ${percentile(latencies, 99).toFixed(2)}`,
  );
  print(`  server peak in-flight ${await sim.maxInFlight()}`);
  figures.push(
    {
      what: `simulator: authenticated GETs over keep-alive HTTPS (${CONCURRENCY} concurrent)`,
      unit: "req/s",
      rounds: [REQUESTS / elapsed],
      headline: true,
    },
    { what: "simulator: GET latency p50", unit: "ms", rounds: [percentile(latencies, 50)] },
  );
}

interface PageRun {
  limit: number;
  pages: number[];
  items: number;
  total: number;
}

async function pageThrough(pool: Pool, token: string, limit: number): Promise<PageRun> {
  const headers = { "x-auth-token": token, accept: "application/json" };
  const pages: number[] = [];
  const seen = new Set<string>();
  let continuation: string | null = null;
  const started = performance.now();
  do {
    const query: string =
      continuation === null ? `limit=${limit}` : `token=${encodeURIComponent(continuation)}`;
    const t0 = performance.now();
    const r = await pool.request({ method: "GET", path: `/api/1.12/file-systems?${query}`, headers });
    const body = (await r.body.json()) as {
      pagination_info?: { continuation_token?: string | null };
      items?: { name: string }[];
    };
    pages.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`listing answered ${r.statusCode}: ${JSON.stringify(body)}`);
    for (const item of body.items ?? []) seen.add(item.name);
    continuation = body.pagination_info?.continuation_token ?? null;
  } while (continuation !== null);
  return { limit, pages, items: seen.size, total: performance.now() - started };
}

async function paging(): Promise<void> {
  const sim = await startRemote({ scenario: { scale: { fileSystems: FILE_SYSTEMS } } });
  const pool = new Pool(sim.url, { connections: 1, connect: { ca: sim.ca } });
  try {
    const token = await login(pool);
    print();
    print(
      `Paging ${FILE_SYSTEMS} file systems (scale scenario; simulator start ${sim.startMs.toFixed(0)} ms)`,
    );
    print("  limit   pages   items   total ms   ms/page   first-N ms/page   last-N ms/page   N");
    for (const limit of [1000, 10000]) {
      await pageThrough(pool, token, limit); // warm-up pass
      const run = await pageThrough(pool, token, limit);
      const n = Math.min(10, Math.floor(run.pages.length / 2));
      const first = mean(run.pages.slice(0, n));
      const last = mean(run.pages.slice(-n));
      print(
        `  ${String(limit).padStart(5)}  ${String(run.pages.length).padStart(6)}  ${String(run.items).padStart(6)}  ${ms(run.total)}  ${ms(mean(run.pages))}  ${ms(first).padStart(16)}  ${ms(last).padStart(15)}  ${String(n).padStart(2)}`,
      );
      figures.push(
        {
          what: `simulator: page through ${FILE_SYSTEMS.toLocaleString("en-US")} file systems, limit ${limit}`,
          unit: "s",
          rounds: [run.total / 1000],
          headline: limit === 1000,
        },
        { what: `simulator: limit ${limit}, first ${n} pages, per page`, unit: "ms", rounds: [first] },
        { what: `simulator: limit ${limit}, last ${n} pages, per page`, unit: "ms", rounds: [last] },
      );
      if (run.items !== FILE_SYSTEMS)
        print(`  !! expected ${FILE_SYSTEMS} distinct file systems, saw ${run.items}`);
    }
  } finally {
    await pool.close();
    await sim.close();
  }
}

async function main(): Promise<void> {
  print(`node ${process.version}`);
  const sim = await startRemote({});
  try {
    await throughput(sim);
  } finally {
    await sim.close();
  }
  await paging();
  writeResult({
    name: "simulator",
    title: "Simulator (`bench/simulator.ts`)",
    command: "npm run bench:simulator",
    figures,
  });
}

const run = isMainThread ? main : serveInWorker;
run().catch((err: unknown) => {
  process.stderr.write(
    `benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
