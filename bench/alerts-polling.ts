/**
 * CPU and memory cost of alert polling: 200 simulated arrays polled at the default 30 s interval.
 *
 * The simulators run in a child process, so this process's CPU time is the bot's alone (the engine, the pool,
 * TLS, JSON, SQLite). Time is compressed with the manual clock: each cycle moves the clock 30 s, which fires
 * every array's poll once (with jitter, and the 10-minute reconcile at its natural rate); the CPU the cycle
 * took, divided by 30 s, is the share of one core a real-time bot would use. Before each cycle one array in five
 * changes an alert in the simulators, so polls carry changes, posts and updates (to an in-memory chat port).
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/alerts-polling.js [--arrays 200] [--cycles 40]
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, createSecureContext } from "node:tls";
import { parseArgs } from "node:util";
import { type buildConnector, Client } from "undici";
import { createAlertEngine } from "../src/alerts/engine.js";
import { ManualClock } from "../src/alerts/manual-clock.js";
import { poolAlertSource } from "../src/alerts/pool-source.js";
import { RecordingChat } from "../src/alerts/replay/recording-chat.js";
import { defaultAlertsConfig } from "../src/config/alerts.js";
import { Secret } from "../src/config/secret.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import { silentLogger } from "../src/logger.js";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { closeAlert, raiseAlert } from "../src/simulator/state-control.js";
import { selfSignedCertificate } from "../src/simulator/tls.js";
import { openSqliteStore } from "../src/store/sqlite.js";
import { childExecArgv } from "./heap.js";
import { startProfile } from "./profile.js";
import { median, writeResult } from "./report/result.js";

const TOKEN = "T-bench-alerts";
/** Sockets idle this long (real time) are closed: well after a poll's last call, well before the array's next poll. */
const IDLE_SOCKET_MS = 100;
/** Fewest arrays the kept-sockets measurement runs on: over fewer sockets, a fresh process's warm-up is the figure. */
const KEPT_MIN_ARRAYS = 100;
const out = (s: string) => process.stdout.write(`${s}\n`);

interface FleetInfo {
  urls: string[];
  ca: string;
}

// ---- child: the simulated fleet, changing alerts on its own ----
async function runFleet(count: number): Promise<void> {
  const tls = await selfSignedCertificate();
  const sims: Simulator[] = [];
  for (let i = 0; i < count; i++) {
    const sim = await startSimulator({
      tls,
      scenario: "empty",
      arrayName: `sim-${i + 1}`,
      apiTokens: [{ token: TOKEN, username: "pureuser" }],
      sessionIdleMs: 24 * 3600_000,
    });
    for (let j = 0; j < 5; j++) {
      raiseAlert(sim.state, {
        code: 1000 + j,
        severity: "warning",
        component: `CH1.FB${j + 1}`,
        subject: "Blade is unhealthy",
      });
    }
    sims.push(sim);
  }
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  // Changes come per cycle, asked by the parent, not per wall-clock second: with a rate in real time a slower
  // bot (a busy machine) saw more changes per cycle, so its CPU per cycle measured a bigger workload.
  // Each change: raise on one array, or close the oldest open alert on another.
  const churn = (changes: number) => {
    for (let c = 0; c < changes; c++) {
      const k = c % 5;
      const sim = sims[Math.floor(rnd() * sims.length)] as Simulator;
      if (rnd() < 0.5) {
        raiseAlert(sim.state, {
          code: 1004,
          severity: rnd() < 0.2 ? "critical" : "warning",
          component: `CH1.FM1.ETH${k}`,
          subject: "Ethernet connector is unhealthy",
        });
      } else {
        const open = [...sim.state.alerts.values()].find((a) => a.state !== "closed");
        if (open) closeAlert(sim.state, open.index);
      }
    }
  };
  process.send?.({ urls: sims.map((s) => s.url), ca: tls.cert } satisfies FleetInfo);
  process.on("message", async (m) => {
    if (typeof m === "object" && m !== null && "churn" in m) {
      churn(Number(m.churn));
      process.send?.("churned");
      return;
    }
    if (m !== "close") return;
    await Promise.all(sims.map((s) => s.close()));
    process.exit(0);
  });
}

/**
 * The bare floor of one poll on this machine, measured after the bot's cycles in the same run: a resumed TLS
 * connect to each array and one small GET through undici (a client per array, as the pool has once an array's
 * socket was closed since its last poll), then the socket closed. No session, no JSON, no engine, no store.
 * Sockets cannot stay open from one poll to the next at 1,000 arrays: each open TLS socket holds ~60 KiB of
 * native buffers (~120 KiB with its undici client), 60-120 MiB for the fleet, against a 256 MiB goal.
 */
async function floorPerPoll(
  urls: readonly string[],
  ca: string,
  rounds: number,
): Promise<{ ms: number; resumed: number; connects: number }> {
  // One TLS context for the fleet (one CA here) and each array's newest ticket held, as the pool does.
  const secureContext = createSecureContext({ ca });
  const tickets = new Map<string, Buffer>();
  let resumed = 0;
  let connects = 0;
  const connectorFor =
    (url: string): buildConnector.connector =>
    (opts, callback) => {
      const socket = connect({
        host: opts.hostname,
        port: Number(opts.port),
        secureContext,
        ...(tickets.has(url) ? { session: tickets.get(url) } : {}),
      });
      socket.on("session", (t: Buffer) => tickets.set(url, t));
      socket.once("secureConnect", () => {
        connects++;
        if (socket.isSessionReused()) resumed++;
        callback(null, socket);
      });
      socket.once("error", (err) => callback(err, null));
    };
  const once = async (url: string) => {
    const client = new Client(url, { connect: connectorFor(url) });
    const res = await client.request({ path: "/api/api_version", method: "GET" });
    await res.body.text();
    await client.destroy();
  };
  for (const url of urls) await once(url); // tickets in place: every measured connect resumes
  [resumed, connects] = [0, 0];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const url of urls) await once(url);
  const cpu = process.cpuUsage(cpu0);
  return { ms: (cpu.user + cpu.system) / 1000 / (rounds * urls.length), resumed, connects };
}

/**
 * The other way to poll, measured rather than argued: a socket kept open to every array between polls, so a
 * poll is one GET on it. Measured in a fresh process of its own with the bot's heap settings (`--kept`): in this
 * one, memory that earlier connections freed would take the new sockets in and hide their cost. Reports the GET's
 * CPU and what each open socket, with its undici client, adds to RSS. Node itself counts ~49 KiB of native memory
 * for each TLS socket (kExternalSize in its tls_wrap.h: the OpenSSL connection and its buffers), and an undici
 * client with its socket holds ~17 KiB of heap.
 */
async function keptSocketsPerPoll(
  urls: readonly string[],
  ca: string,
  rounds: number,
): Promise<{ ms: number; kibPerSocket: number }> {
  const child = fork(new URL(import.meta.url).pathname, ["--kept"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [...process.execArgv, "--expose-gc"],
  });
  const result = new Promise<{ ms: number; kibPerSocket: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { ms: number; kibPerSocket: number }));
    child.once("exit", (code) => reject(new Error(`the kept-sockets process ended (${code})`)));
  });
  child.send({ urls, ca, rounds });
  return result;
}

async function runKept(): Promise<void> {
  const { urls, ca, rounds } = await new Promise<{ urls: string[]; ca: string; rounds: number }>((r) =>
    process.once("message", (m) => r(m as { urls: string[]; ca: string; rounds: number })),
  );
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const secureContext = createSecureContext({ ca });
  const connector: buildConnector.connector = (opts, callback) => {
    const socket = connect({ host: opts.hostname, port: Number(opts.port), secureContext });
    socket.once("secureConnect", () => callback(null, socket));
    socket.once("error", (err) => callback(err, null));
  };
  const get = async (client: Client) => {
    const res = await client.request({ path: "/api/api_version", method: "GET" });
    await res.body.text();
  };
  // One connection made and closed first: what every socket shares (the context, undici's parser) is not theirs.
  const first = new Client(urls[0] as string, { connect: connector });
  await get(first);
  await first.destroy();
  gc();
  const rss0 = process.memoryUsage().rss;
  const clients: Client[] = [];
  for (const url of urls) {
    const client = new Client(url, {
      connect: connector,
      keepAliveTimeout: 600_000,
      keepAliveMaxTimeout: 600_000,
    });
    await get(client);
    clients.push(client);
  }
  gc();
  const kibPerSocket = (process.memoryUsage().rss - rss0) / 1024 / urls.length;
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const client of clients) await get(client);
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(clients.map((c) => c.destroy()));
  process.send?.({ ms: (cpu.user + cpu.system) / 1000 / (rounds * urls.length), kibPerSocket });
  process.disconnect();
}

// ---- parent: the bot ----
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arrays: { type: "string", default: "200" },
      cycles: { type: "string", default: "40" },
      /** Where the result goes (bench/fleet.ts runs it at each fleet size without replacing the report's). */
      "out-dir": { type: "string" },
      /** A CPU profile of the measured cycles only (not the warm-up nor the floor), written to this file. */
      profile: { type: "string" },
    },
  });
  const count = Number(values.arrays);
  const cycles = Number(values.cycles);
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ["--fleet", String(count)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: childExecArgv(),
  });
  const fleet = await new Promise<FleetInfo>((resolve) =>
    child.once("message", (m) => resolve(m as FleetInfo)),
  );

  const logger = silentLogger();
  /** Calls to the arrays by path (the measured cycles only), so a redundant call per poll shows. */
  const calls = new Map<string, number>();
  const baseRss = process.memoryUsage().rss;
  const clock = new ManualClock(Date.now());
  const pool = createArrayPool(
    fleet.urls.map((url, i) => ({
      name: `sim-${i + 1}`,
      origin: url,
      ca: fleet.ca,
      apiToken: new Secret(TOKEN),
      insecure: false,
      tags: [],
      connections: 8, // the config default
      rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 1000 },
      timeouts: { connectMs: 5000, readMs: 30_000 },
      downAfterFailures: 3,
    })),
    {
      logger,
      onCall: (e) => calls.set(e.path, (calls.get(e.path) ?? 0) + 1),
      // Time is compressed (a cycle of 30 s takes a second or two), so the real idle_socket (4 s) would never
      // close a socket between two polls of an array, as it does in real time: a 200-array fleet measured polls
      // with no reconnect at all. A short idle time closes them as real time would, after the poll's calls.
      idleSocketMs: IDLE_SOCKET_MS,
    },
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-alerts-"));
  const store = openSqliteStore({ dataDir: dir });
  const chat = new RecordingChat();
  const config = defaultAlertsConfig({
    routes: [{ name: "all", channels: ["CBENCH001"] }],
  });
  const engine = createAlertEngine({
    config,
    source: poolAlertSource(pool),
    chat,
    store,
    authorizer: { allowed: async () => false },
    clock,
    logger,
  });
  const settle = () => engine.idle();
  /** One change per five arrays per cycle (a stormy fleet: 200 changes every 30 s at 1,000 arrays). */
  const changesPerCycle = Math.ceil(count / 5);
  const churn = () =>
    new Promise<void>((resolve) => {
      child.once("message", () => resolve());
      child.send({ churn: changesPerCycle });
    });
  engine.start();

  // Warm-up: logins, version negotiation and first contact for every array.
  await clock.advance(config.poll_interval, settle);
  const warm = engine.stats();
  if (warm.failedPolls > 0) out(`warning: ${warm.failedPolls} polls failed during warm-up`);

  const shakes0 = pool.sockets().handshakes ?? { full: 0, resumed: 0 };
  calls.clear();
  let maxRss = 0;
  const perCycleCpuMs: number[] = [];
  const profiler = await startProfile(values.profile);
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let c = 0; c < cycles; c++) {
    await churn();
    const before = process.cpuUsage();
    await clock.advance(config.poll_interval, settle);
    const d = process.cpuUsage(before);
    perCycleCpuMs.push((d.user + d.system) / 1000);
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - wall0;
  await profiler.stop();
  const s = engine.stats();
  const polls = s.polls - warm.polls;
  const cpuMsPerCycle = (cpu.user + cpu.system) / 1000 / cycles;
  const sorted = [...perCycleCpuMs].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;

  out(
    `arrays ${count}, interval ${config.poll_interval / 1000} s, measured cycles ${cycles} (${polls} polls, ${s.failedPolls} failed), ${changesPerCycle} alert changes per cycle`,
  );
  out(
    `CPU per cycle: mean ${cpuMsPerCycle.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms → ${((cpuMsPerCycle / config.poll_interval) * 100).toFixed(2)} % of one core at a 30 s interval (goal < 3 %)`,
  );
  out(
    `CPU per poll: ${(cpuMsPerCycle / count).toFixed(2)} ms; wall per cycle (polls serialised by the harness) ${(wallMs / cycles).toFixed(0)} ms`,
  );
  out(
    `RSS max ${(maxRss / 2 ** 20).toFixed(0)} MiB (goal < 200 MiB; ${(baseRss / 2 ** 20).toFixed(0)} MiB before the pool ` +
      `and engine existed); heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
  );
  const shakes = pool.sockets().handshakes ?? { full: 0, resumed: 0 };
  out(
    `TLS handshakes while measured: ${shakes.full - shakes0.full} full, ${shakes.resumed - shakes0.resumed} resumed`,
  );
  const perPoll = [...calls].map(([path, n]) => `${path} ${(n / polls).toFixed(2)}`).join(", ");
  out(`calls per poll: ${perPoll}`);
  out(
    `activity while measured: ${s.opened - warm.opened} opened, ${s.posts - warm.posts} posts, ${s.updates - warm.updates} updates, ${s.threadLines - warm.threadLines} thread lines`,
  );
  const floor = await floorPerPoll(fleet.urls, fleet.ca, 2);
  const floorMs = floor.ms;
  const floorPct = ((floorMs * count) / config.poll_interval) * 100;
  out(
    `bare floor per poll (a resumed TLS connect and one GET through undici, nothing else; ${floor.resumed} of ${floor.connects} connects resumed): ${floorMs.toFixed(2)} ms → ${floorPct.toFixed(2)} % of a core for ${count} arrays every ${config.poll_interval / 1000} s; the bot's poll ${(cpuMsPerCycle / count / floorMs).toFixed(2)}× it`,
  );
  // Below 100 sockets the figures are the fresh process's own warm-up (10 arrays measured 892 KiB and 1.22 ms).
  const kept = count >= KEPT_MIN_ARRAYS ? await keptSocketsPerPoll(fleet.urls, fleet.ca, 2) : undefined;
  const keptPct = kept ? ((kept.ms * count) / config.poll_interval) * 100 : 0;
  out(
    kept
      ? `kept sockets instead (one open to each array, a poll one GET on it): ${kept.ms.toFixed(2)} ms per GET → ${keptPct.toFixed(2)} % of a core for the GETs alone; each open socket ${kept.kibPerSocket.toFixed(0)} KiB of RSS → ${((kept.kibPerSocket * count) / 1024).toFixed(0)} MiB for ${count} arrays (the idle-cost goal is < 64 KiB a configured array, everything included)`
      : `kept sockets instead: not measured below ${KEPT_MIN_ARRAYS} arrays`,
  );
  const share = perCycleCpuMs.map((x) => (x / config.poll_interval) * 100);
  writeResult(
    {
      name: "alerts-polling",
      title: "Alert polling (`bench/alerts-polling.ts`)",
      command: "npm run bench:alerts",
      figures: [
        {
          what: `alerts: polling ${count} arrays every ${config.poll_interval / 1000} s, CPU (each cycle a round)`,
          unit: "%",
          rounds: share,
          goal: { text: "< 3 % of a core", met: median(share) < 3 },
        },
        {
          what: `alerts: peak RSS polling ${count} arrays`,
          unit: "MiB",
          rounds: [maxRss / 2 ** 20],
          goal: { text: "< 200 MiB", met: maxRss / 2 ** 20 < 200 },
        },
        {
          what: `alerts: bare floor of polling ${count} arrays every ${config.poll_interval / 1000} s (a resumed TLS connect and one GET per array through undici, nothing else), CPU`,
          unit: "%",
          rounds: [floorPct],
        },
        ...(kept
          ? [
              {
                what: `alerts: a socket kept open to each array instead, the GETs alone for ${count} arrays every ${config.poll_interval / 1000} s, CPU`,
                unit: "%" as const,
                rounds: [keptPct],
              },
              {
                what: "alerts: RSS of one kept TLS socket with its client",
                unit: "KiB" as const,
                rounds: [kept.kibPerSocket],
              },
            ]
          : []),
      ],
    },
    values["out-dir"],
  );

  await engine.stop();
  await pool.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  child.send("close");
}

const fleetAt = process.argv.indexOf("--fleet");
if (fleetAt >= 0) await runFleet(Number(process.argv[fleetAt + 1]));
else if (process.argv.includes("--kept")) await runKept();
else await main();
