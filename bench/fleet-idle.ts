/**
 * The cost of one configured, idle array: the session pool's RSS with 1,000 arrays minus with 10, divided by
 * the 990 between them. Each count is measured in a fresh process with the image's heap settings: the pool is
 * built, every array checked once (the version and a login, as at start-up), then left alone until every socket
 * has closed (array_pool.idle_socket); after a full GC its RSS is read. What an idle array may still hold is its
 * session token and its objects, no socket and no timer (the pool has one timer for all of them).
 * The second figure is an array that has been used: after the check, one list call each (the limiter, the undici
 * pool and its socket, the session's token), then left until its sockets have closed: what a fleet under load
 * keeps of an array between its uses.
 * The arrays are one simulator (in a child process) answering under every name.
 *   npm run bench:fleet-idle [-- --arrays 1000 --baseline 10 --rounds 3 --own-ca --snapshot bench/results/fleet-idle]
 * --own-ca gives each array its own CA (self-signed certificates, as arrays ship): one TLS context each, not one
 * for the fleet; its figures are written as fleet-idle-own-ca.
 * --snapshot writes a heap snapshot of each process of the last round (<prefix>-<mode>-<arrays>.heapsnapshot), for
 * `node dist/bench/load/heap-diff.js <10> <1000>` (what the arrays between them hold, by constructor).
 */
import { type ChildProcess, fork } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import { parseArgs } from "node:util";
import { writeHeapSnapshot } from "node:v8";
import { Secret } from "../src/config/secret.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import { silentLogger } from "../src/logger.js";
import { simulatedArrayConfig, startSimulator } from "../src/simulator/index.js";
import { childExecArgv } from "./heap.js";
import { type BenchResult, median, writeResult } from "./report/result.js";

const TOKEN = "T-bench-fleet-idle";
const out = (s: string) => process.stdout.write(`${s}\n`);

/** checked: the version and a login; used: that and one list call, as an array under load is used. */
type Mode = "checked" | "used";
const MODES: readonly Mode[] = ["checked", "used"];

interface Measured {
  arrays: number;
  rssMiB: number;
  heapMiB: number;
  sockets: number;
}

/** Child: one simulator answering for every array name, until told to stop. */
async function serveArrays(): Promise<void> {
  const sim = await startSimulator({
    scenario: "empty",
    apiTokens: [{ token: TOKEN, username: "pureuser" }],
    sessionIdleMs: 24 * 3600_000,
  });
  process.send?.({ url: sim.url, ca: sim.ca });
  process.on("message", () => void sim.close().then(() => process.exit(0)));
}

/** Child: the pool with `n` arrays, checked once (and used once), then idle; prints what it holds. */
async function measure(
  n: number,
  url: string,
  ca: string,
  mode: Mode,
  snapshot: string,
  ownCa: boolean,
): Promise<void> {
  // Each array its own CA, as arrays with self-signed certificates have: the same certificate followed by i
  // newlines (which the PEM parser skips) is another CA to the pool's context cache (tls-context.ts holdContext).
  const caOf = (i: number) => (ownCa ? `${ca}${"\n".repeat(i + 1)}` : ca);
  const pool = createArrayPool(
    Array.from({ length: n }, (_, i) =>
      simulatedArrayConfig(`fb-${i}`, { url, ca: caOf(i) }, { apiToken: new Secret(TOKEN) }),
    ),
    { logger: silentLogger(), sweepIdle: true },
  );
  await pool.checkAll();
  if (mode === "used") {
    // A few at a time, as the check goes: the figure is what stays, not what a burst costs.
    const clients = pool.list();
    let next = 0;
    const worker = async () => {
      while (next < clients.length) await clients[next++]?.get("/arrays");
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }
  // Idle: every socket closes after the idle time (4 s); polled, since nothing here can be awaited for it.
  while (pool.sockets().open > 0) await delay(250);
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  await delay(500);
  const m = process.memoryUsage();
  if (snapshot !== "") writeHeapSnapshot(`${snapshot}-${mode}-${n}.heapsnapshot`);
  const reachable = pool.health().filter((h) => h.reachable).length;
  const result: Measured = {
    arrays: reachable,
    rssMiB: m.rss / 2 ** 20,
    heapMiB: m.heapUsed / 2 ** 20,
    sockets: pool.sockets().open,
  };
  process.send?.(result);
  await pool.close();
  process.exit(0);
}

function child(args: string[], execArgv: string[]): { proc: ChildProcess; first: Promise<unknown> } {
  const proc = fork(new URL(import.meta.url), args, {
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const first = new Promise((resolve, reject) => {
    proc.once("message", resolve);
    proc.once("exit", (code) => reject(new Error(`child ${args.join(" ")} exited (${code})`)));
  });
  return { proc, first };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arrays: { type: "string", default: "1000" },
      baseline: { type: "string", default: "10" },
      rounds: { type: "string", default: "3" },
      snapshot: { type: "string", default: "" },
      "own-ca": { type: "boolean", default: false },
    },
  });
  const many = Number(values.arrays);
  const few = Number(values.baseline);
  const rounds = Number(values.rounds);
  const sim = child(["--serve"], childExecArgv());
  const { url, ca } = (await sim.first) as { url: string; ca: string };
  const per: Record<Mode, { rss: number[]; heap: number[]; many: number[]; few: number[] }> = {
    checked: { rss: [], heap: [], many: [], few: [] },
    used: { rss: [], heap: [], many: [], few: [] },
  };
  for (let r = 0; r < rounds; r++) {
    for (const mode of MODES) {
      // The two counts alternate, so a change in the machine's load falls on both.
      const m: Measured[] = [];
      for (const n of [few, many]) {
        const snap = values.snapshot !== "" && r === rounds - 1 ? values.snapshot : "";
        const args = ["--measure", String(n), url, ca, mode, snap, values["own-ca"] ? "own-ca" : ""];
        const c = child(args, [...process.execArgv, "--expose-gc"]);
        m.push((await c.first) as Measured);
      }
      const [a, b] = m as [Measured, Measured];
      const kib = ((b.rssMiB - a.rssMiB) * 1024) / (many - few);
      const heapKib = ((b.heapMiB - a.heapMiB) * 1024) / (many - few);
      const f = per[mode];
      f.rss.push(kib);
      f.heap.push(heapKib);
      f.few.push(a.rssMiB);
      f.many.push(b.rssMiB);
      out(
        `round ${r + 1} ${mode}: ${few} arrays ${a.rssMiB.toFixed(1)} MiB (heap ${a.heapMiB.toFixed(1)}), ${many} ` +
          `arrays ${b.rssMiB.toFixed(1)} MiB (heap ${b.heapMiB.toFixed(1)}; ${b.arrays} checked, ${b.sockets} ` +
          `sockets open) → ${kib.toFixed(1)} KiB per array (heap ${heapKib.toFixed(1)})`,
      );
    }
  }
  sim.proc.send("close");
  const idle = per.checked;
  const used = per.used;
  out(`idle cost per configured array: median ${median(idle.rss).toFixed(1)} KiB (goal < 64 KiB)`);
  out(
    `cost per array after one call each, sockets closed: median ${median(used.rss).toFixed(1)} KiB ` +
      `(heap ${median(used.heap).toFixed(1)} KiB)`,
  );
  const own = values["own-ca"] ? " (each array its own CA)" : "";
  const result: BenchResult = {
    name: "fleet-idle",
    title: `Idle arrays${own} (\`bench/fleet-idle.ts\`)`,
    command: `npm run bench:fleet-idle${values["own-ca"] ? " -- --own-ca" : ""}`,
    figures: [
      {
        what: `fleet: idle cost per configured array${own} (pool RSS with ${many} idle arrays minus with ${few}, per array)`,
        unit: "KiB",
        rounds: idle.rss,
        goal: {
          text: "< 64 KiB",
          met: median(idle.rss) < 64,
          check: { of: "median", op: "<", value: 64 },
        },
      },
      { what: `fleet: pool RSS with ${many} idle arrays${own}`, unit: "MiB", rounds: idle.many },
      { what: `fleet: pool RSS with ${few} idle arrays${own}`, unit: "MiB", rounds: idle.few },
      {
        what: `fleet: cost per array after one call each, sockets closed${own} (pool RSS, ${many} minus ${few}, per array)`,
        unit: "KiB",
        rounds: used.rss,
      },
      {
        what: `fleet: heap per array after one call each, sockets closed${own}`,
        unit: "KiB",
        rounds: used.heap,
      },
    ],
  };
  // Its own result with --own-ca, beside the report's (npm run bench runs the shared-CA form).
  if (values["own-ca"]) result.name = "fleet-idle-own-ca";
  writeResult(result);
}

const at = (flag: string) => process.argv.indexOf(flag);
if (at("--serve") >= 0) await serveArrays();
else if (at("--measure") >= 0) {
  const i = at("--measure");
  const [n, url, ca, mode, snapshot, own] = process.argv.slice(i + 1);
  const m: Mode = mode === "used" ? "used" : "checked";
  await measure(Number(n), url ?? "", ca ?? "", m, snapshot ?? "", own === "own-ca");
} else await main();
