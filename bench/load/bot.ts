/**
 * The bot under load: the real Slack app in HTTP mode with the real pipeline and array pool, in this process
 * or in a child process (the default of `npm run load`). In a child its memory is measured alone: the RSS the
 * load reports is then the bot's, not the driver's, the fake Slack's or the simulated arrays'. The child runs with
 * the image's heap settings (src/ops/heap-options.ts) and hands its audit entries to the driver once a second,
 * so what it holds is the bot's own state. Its memory is sampled once a second between start() and stop();
 * mark() takes the heap after a full GC (with --expose-gc). Given `store` (the failover mode), the bot is a replica
 * built by the composition root on Redis under Sentinel instead (composed-bot.ts).
 */
import { type ChildProcess, fork } from "node:child_process";
import { getHeapSpaceStatistics, writeHeapSnapshot } from "node:v8";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { parseSlackSection } from "../../src/config/slack.js";
import type { AuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayCallEvent } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { applyProcessSettings, HEAP_OPTIONS, MALLOC_ENV } from "../../src/ops/heap-options.js";
import { simulatedArrayConfig } from "../../src/simulator/index.js";
import { createSlackApp, type SlackApp } from "../../src/slack/app.js";
import { callRecorder } from "./approve-trace.js";
import { type SharedStoreOptions, startComposedBot } from "./composed-bot.js";
import type { FleetArray } from "./fleet.js";
import { pendingInMemory, pendingOnDisk } from "./pending.js";
import { type AuditEntry, reconcileSink } from "./reconcile.js";
import { rssSplit, type SocketCensus, socketCensus } from "./sockets.js";

export interface BotOptions {
  arrays: readonly FleetArray[];
  admins: readonly string[];
  operators: readonly string[];
  signingSecret: string;
  slackApiUrl: string;
  /** Share the store in Redis through these sentinels (the failover mode's replicas); unset: approvals in memory. */
  store?: SharedStoreOptions;
  /** This replica's name in lease records. */
  replicaId?: string;
  /** Pending approvals in SQLite on disk (a temporary data directory) instead of in memory; standalone only. */
  pending?: "memory" | "sqlite";
}

export interface BotSample {
  /** Seconds since start(). */
  t: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** V8's committed heap, and memory outside it held by JS objects (Buffers, ArrayBuffers). */
  heapTotalMiB: number;
  externalMiB: number;
  /** Of external: ArrayBuffers and Buffers. */
  arrayBuffersMiB?: number;
  /** RSS split into anonymous and file-backed (code) memory, and the open sockets by peer (every 5 s; Linux). */
  rssAnonMiB?: number;
  rssFileMiB?: number;
  sockets?: SocketCensus;
}

export interface BotMemory {
  samples: BotSample[];
  /** V8's spaces at the end: committed and used MiB of each space that holds anything. */
  spaces?: { name: string; committedMiB: number; usedMiB: number }[];
  /** Heap used right after a full GC at each mark(), in order; empty without --expose-gc. */
  liveHeapMiB: number[];
}

export interface Bot {
  readonly port: number;
  /** Starts the memory samples (sending starts). */
  start(): Promise<void>;
  /** The heap after a full GC, now. */
  mark(): Promise<void>;
  /** Writes a heap snapshot of the bot's process to `path`. */
  snapshot(path: string): Promise<string>;
  /** Stops the app and the pool; the audit entries for reconciliation and the memory seen. */
  stop(): Promise<BotStopped>;
  /** Takes the audit entries written since the last call (the child hands them over once a second). */
  drainAudit(): AuditEntry[];
}

/** What a stopped bot hands back: audit entries, memory, its pending records, its DELETE calls (approve-trace.ts). */
export interface BotStopped {
  entries: AuditEntry[];
  memory: BotMemory;
  pendingRecords: number;
  trace?: ReturnType<ReturnType<typeof callRecorder>["report"]>;
}

/**
 * The load's array tuning. Sockets per array are the shipped default (4), and calls at once as many: the pool's
 * bound on sockets across the fleet (array_pool.max_sockets) is what keeps memory in check. 2 per array made a
 * 2.x eradication's recheck (five reads) take three round trips instead of two; 5 for every call took places
 * from other arrays at 1,000 arrays, and reads and approvals got slower (docs/benchmarks.md). An approval's calls
 * may use one more of each (limiter.ts URGENT_EXTRA), so its five reads go at once.
 */
const arrayConfigs = (arrays: readonly FleetArray[]) =>
  arrays.map((a) =>
    simulatedArrayConfig(a.name, a, {
      rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 200 },
      timeouts: { connectMs: 2000, readMs: 10_000 },
    }),
  );

interface BotParts {
  app: SlackApp;
  close(): Promise<void>;
  pendingRecords(): Promise<number>;
}

/** The bot on its own, its approvals in memory: the Slack app, the pipeline and the pool, nothing shared. */
function standaloneParts(o: BotOptions, audit: AuditSink, onCall: (e: ArrayCallEvent) => void): BotParts {
  const config = configSchema.parse({
    arrays: o.arrays.map((a) => ({ name: a.name, address: a.url, api_token_env: "T" })),
    access: { default_role: "none", admin: { users: o.admins }, operator: { users: o.operators } },
  });
  const pool = createArrayPool(arrayConfigs(o.arrays), { logger: silentLogger(), onCall });
  // SQLite as a deployment without Redis keeps it (WAL, synchronous full), in a directory of this run's own.
  const pending = o.pending === "sqlite" ? pendingOnDisk() : pendingInMemory();
  const store = pending.store;
  const app = createSlackApp(
    parseSlackSection({
      mode: "http",
      botToken: "xoxb-load",
      signingSecret: o.signingSecret,
      apiUrl: o.slackApiUrl,
      port: 0,
      channelIntervalMs: 0,
      drainSeconds: 30,
    }),
    {
      host: "127.0.0.1",
      logger: silentLogger(),
      pipeline: ({ identity }) =>
        createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config,
          identity,
          store,
          audit,
          logger: silentLogger(),
          now: Date.now,
        }),
    },
  );
  return {
    app,
    async close() {
      await app.stop();
      await pool.close();
      await pending.close();
    },
    pendingRecords: () => pending.count(),
  };
}

/** A replica sharing Redis through Sentinel (composed-bot.ts). */
async function sharedParts(o: BotOptions, store: SharedStoreOptions, audit: AuditSink): Promise<BotParts> {
  const { app, core, close } = await startComposedBot({
    ...o,
    arrays: arrayConfigs(o.arrays),
    store,
    replicaId: o.replicaId ?? `load-${process.pid}`,
    audit,
  });
  return { app, close, pendingRecords: async () => (await core.pending.listOpen()).length };
}

/** The bot in this process. */
export async function startLocalBot(o: BotOptions): Promise<Bot> {
  // As the bot's entry point does (src/main.ts); in the driver's process too with --bot-in-process.
  applyProcessSettings();
  const audit = reconcileSink();
  const calls = callRecorder();
  const parts = o.store ? await sharedParts(o, o.store, audit) : standaloneParts(o, audit, calls.observe);
  const app = parts.app;
  const { port } = await app.start();
  const memory: BotMemory = { samples: [], liveHeapMiB: [] };
  let t0 = 0;
  const slackPort = Number(new URL(o.slackApiUrl).port);
  let n = 0;
  const sample = () => {
    const m = process.memoryUsage();
    const split = rssSplit();
    const sockets = n++ % 5 === 0 ? socketCensus(port, slackPort) : undefined;
    memory.samples.push({
      t: (performance.now() - t0) / 1000,
      rssMiB: m.rss / 2 ** 20,
      heapUsedMiB: m.heapUsed / 2 ** 20,
      heapTotalMiB: m.heapTotal / 2 ** 20,
      externalMiB: m.external / 2 ** 20,
      arrayBuffersMiB: m.arrayBuffers / 2 ** 20,
      ...(split ? { rssAnonMiB: split.anonMiB, rssFileMiB: split.fileMiB } : {}),
      ...(sockets ? { sockets } : {}),
    });
  };
  let sampler: NodeJS.Timeout | undefined;
  return {
    port,
    async start() {
      t0 = performance.now();
      sampler = setInterval(sample, 1000);
    },
    async mark() {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc === undefined) return;
      gc();
      memory.liveHeapMiB.push(process.memoryUsage().heapUsed / 2 ** 20);
    },
    async snapshot(path: string) {
      return writeHeapSnapshot(path);
    },
    drainAudit: () => audit.entries.splice(0),
    async stop() {
      sample();
      memory.spaces = getHeapSpaceStatistics()
        .filter((sp) => sp.space_size > 0)
        .map((sp) => ({
          name: sp.space_name,
          committedMiB: sp.space_size / 2 ** 20,
          usedMiB: sp.space_used_size / 2 ** 20,
        }));
      clearInterval(sampler);
      const pendingRecords = await parts.pendingRecords().catch(() => -1);
      await parts.close();
      return { entries: audit.entries, memory, pendingRecords, trace: calls.report() };
    },
  };
}

type Request = { id: number; op: "start" | "mark" | "stop" | "snapshot"; arg?: string };

/** The child's side: one bot, driven over IPC until "stop". */
export function serveBot(): void {
  let bot: Bot | undefined;
  process.on("uncaughtException", (err) => {
    console.error("bot process: uncaught", err);
    process.exit(70);
  });
  process.once("message", (o: BotOptions) => {
    void startLocalBot(o).then((b) => {
      bot = b;
      process.send?.({ port: b.port });
      const handOver = setInterval(() => {
        const audit = b.drainAudit();
        if (audit.length > 0) process.send?.({ audit });
      }, 1000);
      process.on("message", (m: Request) => {
        const b = bot as Bot;
        if (m.op === "stop") clearInterval(handOver);
        void (m.op === "snapshot" ? b.snapshot(m.arg ?? "bot.heapsnapshot") : b[m.op]()).then((value) => {
          // Disconnecting only once the answer is written: the stop answer (every audit entry) is large, and a
          // disconnect right after send() drops it. Then the process ends: a replica's closed parts may still
          // hold a timer (the Redis client's reconnect), and the driver waits for this exit.
          process.send?.({ id: m.id, value }, undefined, {}, () => {
            if (m.op !== "stop") return;
            process.disconnect();
            process.exit(0);
          });
        });
      });
    });
  });
}

/** The bot in a child process (bench/load/bot-child.js, run with --expose-gc). */
export async function startChildBot(
  o: BotOptions & { heapOptions?: boolean },
): Promise<Bot & { pid: number | undefined }> {
  const child: ChildProcess = fork(new URL("./bot-child.js", import.meta.url), [], {
    execArgv: ["--expose-gc", ...(o.heapOptions === false ? [] : HEAP_OPTIONS)],
    // The image's allocator settings too: glibc reads them only when a process starts.
    env: { ...process.env, ...(o.heapOptions === false ? {} : MALLOC_ENV) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child.send(o);
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the bot process exited (${code}) before it listened`)));
    child.once("message", (m) => resolve(m as { port: number }));
  });
  child.removeAllListeners("exit");
  let seq = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  let stopping = false;
  // A bot that dies mid-run is a failure of the run, said at once, not a driver waiting for answers for ever.
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`the bot process exited during the run (code ${code}, signal ${signal})`);
  });
  const handedOver: AuditEntry[] = [];
  child.on("message", (m) => {
    if (typeof m === "object" && m !== null && "audit" in m) {
      handedOver.push(...(m as { audit: AuditEntry[] }).audit);
      return;
    }
    const r = m as { id: number; value: unknown };
    waiting.get(r.id)?.(r.value);
    waiting.delete(r.id);
  });
  const call = <T>(op: Request["op"], arg?: string): Promise<T> =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve as (v: unknown) => void);
      child.send({ id, op, ...(arg === undefined ? {} : { arg }) } satisfies Request);
    });
  return {
    port,
    pid: child.pid,
    start: () => call("start"),
    mark: () => call("mark"),
    snapshot: (path) => call("snapshot", path),
    drainAudit: () => handedOver.splice(0),
    async stop() {
      stopping = true;
      const exited = new Promise((r) => child.once("exit", r));
      const out = await call<BotStopped>("stop");
      await exited;
      return { ...out, entries: [...handedOver.splice(0), ...out.entries] };
    },
  };
}

export function startBot(o: BotOptions & { child?: boolean; heapOptions?: boolean }): Promise<Bot> {
  return o.child === true ? startChildBot(o) : startLocalBot(o);
}
