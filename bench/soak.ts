/**
 * Soak: the bot's own memory under steady traffic, to show it stays flat after warm-up (issue 16's resource
 * bounds). The bot — the Slack app in HTTP mode, the real pipeline and array pool — runs in this process; the
 * array (a demo simulator) and Slack (the sender, the Web API and response_url) each run in a child process, so
 * the memory sampled here is the bot's alone (the load test cannot say that: it holds 200 simulators).
 * Every delivery has a new trigger_id and users rotate, so the dedupe cache, identity cache, pending store and
 * metrics keep seeing new keys; a map without a bound would grow with the run. Heap and RSS are sampled after a
 * full GC once a second. Warm-up comes first: the caches bounded by count rather than time must fill before
 * "flat" means anything (the pipeline keeps each answer 10 minutes, at most 5,000, so a retried delivery gets
 * the same answer; the Slack layer remembers 10,000 delivery ids; at 80 commands/s both are full by 125 s).
 * Users stay under Slack's users.info pace (Tier 4, 100 a minute), which the bot honours: 400 new users in a
 * minute would wait in that queue.
 * Run: npm run bench:soak [-- --seconds 240 --rate 80 --users 80 --warm-up 140]
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { writeHeapSnapshot } from "node:v8";
import { RESOURCES } from "../commands/index.js";
import { configSchema } from "../src/config/schema.js";
import { Secret } from "../src/config/secret.js";
import { parseSlackSection } from "../src/config/slack.js";
import { createMemoryPendingStore } from "../src/core/approvals/pending-store-memory.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import { createPipeline } from "../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import { silentLogger } from "../src/logger.js";
import { DEFAULT_API_TOKEN, simulatedArrayConfig, startSimulator } from "../src/simulator/index.js";
import { createSlackApp } from "../src/slack/app.js";
import { childExecArgv } from "./heap.js";
import { postSigned, SlackStub } from "./load/slack-stub.js";
import { type BenchResult, writeResult } from "./report/result.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "240" },
    /** Seconds of warm-up (default 140: past the 125 s the largest count-bounded cache needs to fill at 80/s). */
    "warm-up": { type: "string", default: "140" },
    rate: { type: "string", default: "80" },
    users: { type: "string", default: "80" },
    child: { type: "string" },
    /** Write a heap snapshot after warm-up and at the end (bench/results/soak-*.heapsnapshot), to find what grows. */
    snapshots: { type: "boolean", default: false },
  },
});

/** Reads, and changes with --dry-run (planned, gated, never sent): the pipeline's whole path, the array unchanged. */
const COMMANDS = [
  "fs list",
  "fs show projects",
  "space",
  "snapshot list --fs projects",
  "policy list",
  "bucket list",
  "replication status",
  "alert list",
  "fs create soak-{n} 1T --dry-run",
  "fs resize builds 9T --dry-run",
  "help fs",
];

interface Job {
  port: number;
  secret: string;
  rate: number;
  seconds: number;
  users: number;
}
interface SenderReport {
  sent: number;
  answered: number;
  badAcks: number;
  unanswered: string[];
  /** Web API calls the bot made, by method (answers go to response_url; these are the rest). */
  calls: Record<string, number>;
}

const ANSWER_WITHIN_MS = 15_000;

const MiB = 2 ** 20;

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once("message", (m) => resolve(m as T)));
}

function spawnChild(kind: "array" | "sender"): ChildProcess {
  return fork(new URL(import.meta.url).pathname, ["--child", kind], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: childExecArgv(),
  });
}

/** The values at the start, each quarter and the end of a series, rounded: "176, 180, 183, 185, 187". */
function quarters(xs: readonly number[]): string {
  return [0, 0.25, 0.5, 0.75, 1]
    .map((q) => Math.round(xs[Math.round(q * (xs.length - 1))] ?? Number.NaN))
    .join(", ");
}

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:soak does)");
  const seconds = Number(values.seconds);
  const warmUp = Math.min(Number(values["warm-up"]), seconds / 2);
  const users = Number(values.users);
  const array = spawnChild("array");
  const { url, ca } = await nextMessage<{ url: string; ca: string }>(array);
  const sender = spawnChild("sender");
  const { apiUrl } = await nextMessage<{ apiUrl: string }>(sender);

  const pool = createArrayPool(
    [{ ...simulatedArrayConfig("lab-1", { url, ca }), apiToken: new Secret(DEFAULT_API_TOKEN) }],
    { logger: silentLogger() },
  );
  const secret = "soak-signing-secret-000";
  const app = createSlackApp(
    parseSlackSection({
      mode: "http",
      botToken: "xoxb-soak",
      signingSecret: secret,
      apiUrl,
      port: 0,
      channelIntervalMs: 0,
    }),
    {
      host: "127.0.0.1",
      logger: silentLogger(),
      pipeline: ({ identity }) =>
        createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config: configSchema.parse({
            arrays: [{ name: "lab-1", address: url, api_token_env: "T" }],
            // Operators, so the --dry-run changes pass authorisation and reach their plan.
            access: {
              default_role: "viewer",
              operator: { users: Array.from({ length: users }, (_, i) => `U${i}`) },
            },
          }),
          identity,
          store: createMemoryPendingStore(),
          // Kept by the bench for nothing: an audit sink that forgets, so the figure is the bot's, not the sink's.
          audit: { write: () => {} },
          logger: silentLogger(),
          now: Date.now,
        }),
    },
  );
  const { port } = await app.start();

  const samples: { t: number; heap: number; rss: number }[] = [];
  const t0 = performance.now();
  const sample = () => {
    gc();
    const m = process.memoryUsage();
    samples.push({ t: (performance.now() - t0) / 1000, heap: m.heapUsed / MiB, rss: m.rss / MiB });
  };
  sample();
  const timer = setInterval(sample, 1000);
  const snap = (label: string) => {
    if (values.snapshots) writeHeapSnapshot(`bench/results/soak-${label}.heapsnapshot`);
  };
  const warm = setTimeout(() => snap("warm"), warmUp * 1000);
  const job: Job = { port, secret, rate: Number(values.rate), seconds, users };
  sender.send(job);
  const report = await nextMessage<SenderReport>(sender);
  clearInterval(timer);
  clearTimeout(warm);
  sample();
  snap("end");
  await app.stop();
  await pool.close();
  if (sender.connected) sender.disconnect();
  array.disconnect();

  if (report.unanswered.length > 0) {
    const kinds = [...new Set(report.unanswered.map((t) => t.replace(/\d+/g, "N")))];
    console.error(
      `${report.unanswered.length} unanswered within ${ANSWER_WITHIN_MS / 1000} s: ${kinds.join("; ")}`,
    );
    console.error(`Web API calls: ${JSON.stringify(report.calls)}`);
  }
  const after = samples.filter((s) => s.t >= warmUp);
  const first = after[0] ?? samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) throw new Error("no samples");
  const perMin = (key: "heap" | "rss") => slope(after.map((s) => ({ x: s.t / 60, y: s[key] })));
  const rssGrowth = last.rss - first.rss;
  const result: BenchResult = {
    name: "soak",
    title: "Soak: the bot's memory under steady traffic (`bench/soak.ts`)",
    command: "npm run bench:soak",
    figures: [
      {
        what: `soak: commands answered (${report.sent} sent in ${seconds} s)`,
        unit: "count",
        rounds: [report.answered],
        goal: {
          text: `= ${report.sent}, every ack 200`,
          met: report.answered === report.sent && report.badAcks === 0,
        },
      },
      { what: "soak: heap after warm-up (after GC)", unit: "MiB", rounds: [first.heap] },
      { what: "soak: heap at the end (after GC)", unit: "MiB", rounds: [last.heap] },
      { what: "soak: heap trend after warm-up, per minute", unit: "MiB", rounds: [perMin("heap")] },
      { what: "soak: RSS after warm-up", unit: "MiB", rounds: [first.rss] },
      { what: "soak: RSS at the end", unit: "MiB", rounds: [last.rss] },
      {
        what: "soak: RSS growth after warm-up",
        unit: "MiB",
        rounds: [rssGrowth],
        goal: { text: "< 10 MiB (flat)", met: rssGrowth < 10 },
        headline: true,
      },
    ],
    notes: [
      `${job.rate} commands/s for ${seconds} s from ${job.users} users (${COMMANDS.length} kinds: reads and --dry-run changes), each delivery a new trigger_id; the array and Slack in child processes; heap and RSS sampled after a full GC every second, warm-up the first ${warmUp} s.`,
      `RSS after warm-up, every ${Math.round(after.length / 4)} s: ${quarters(after.map((x) => x.rss))} MiB; heap: ${quarters(after.map((x) => x.heap))} MiB.`,
    ],
  };
  console.log(JSON.stringify(result, null, 2));
  writeResult(result);
  if (!result.figures.every((f) => f.goal?.met !== false)) process.exitCode = 1;
}

/** Plays Slack: signed commands at a fixed rate, each answer awaited on response_url. */
async function senderMain(): Promise<void> {
  const stub = await SlackStub.start();
  const waiting = new Map<string, () => void>();
  stub.events.on("response", (id: string) => waiting.get(id)?.());
  process.send?.({ apiUrl: stub.apiUrl });
  const job = await new Promise<Job>((r) => process.once("message", (m) => r(m as Job)));
  const report: SenderReport = { sent: 0, answered: 0, badAcks: 0, unanswered: [], calls: {} };
  const inflight = new Set<Promise<void>>();
  const sendOne = async (n: number) => {
    const id = `s${n}`;
    const answered = new Promise<void>((r) => waiting.set(id, r));
    const text = (COMMANDS[n % COMMANDS.length] as string).replace("{n}", String(n));
    const form = {
      command: "/array",
      text,
      user_id: `U${n % job.users}`,
      channel_id: `C${n % 7}`,
      trigger_id: `t-${randomUUID()}`,
      response_url: stub.responseUrl(id),
    };
    const status = await postSigned(`http://127.0.0.1:${job.port}/slack/events`, job.secret, form);
    if (status !== 200) report.badAcks++;
    // An answer that never comes is counted (and named), not waited for forever.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((r) => {
      timer = setTimeout(() => r("late"), ANSWER_WITHIN_MS);
    });
    const outcome = await Promise.race([answered, late]);
    clearTimeout(timer);
    waiting.delete(id);
    if (outcome === "late") report.unanswered.push(text);
    else report.answered++;
  };
  const total = job.rate * job.seconds;
  const start = performance.now();
  for (let n = 0; n < total; n++) {
    // Paced against the clock, not by sleeping a fixed gap: late sends catch up instead of drifting.
    const due = start + (n * 1000) / job.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    report.sent++;
    const p = sendOne(n).finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await Promise.all(inflight);
  report.calls = Object.fromEntries(stub.counts);
  process.send?.(report);
  await stub.close();
}

if (values.child === "array") {
  const sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  process.send?.({ url: sim.url, ca: sim.ca });
  process.on("disconnect", () => void sim.close().then(() => process.exit(0)));
} else if (values.child === "sender") {
  await senderMain();
} else {
  await main();
}
