/**
 * End-to-end figures through the real bot:
 *  (a) slash-command ack latency with 50 concurrent signed `/array fs list` in HTTP mode (Bolt's receiver,
 *      the real pipeline, one simulated array), and the time until each answer reaches response_url; then the
 *      same commands as Socket Mode envelopes (the sender plays Slack's WebSocket endpoint);
 *  (b) `fs list` end to end (pipeline + Block Kit rendering) vs one raw REST call of the same list;
 *  (c) 100,000 file systems listed through the bot, following `--start` page by page into CSVs: time, CSV
 *      rows, and RSS growth (the simulator runs in a child process so its memory is not counted).
 * Writes bench/results/e2e.json. Run: npm run bench:e2e [-- --rounds 15 --ack-rounds 30 --concurrent 50 --iterations 200]
 * (`-- --only ack` runs (a) alone and prints its figures without writing the result file).
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { RESOURCES } from "../commands/index.js";
import { configSchema } from "../src/config/schema.js";
import { Secret } from "../src/config/secret.js";
import { parseSlackSection } from "../src/config/slack.js";
import { createMemoryPendingStore } from "../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../src/core/audit/audit.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import type { Effect, Pipeline } from "../src/core/context/pipeline-types.js";
import { createPipeline } from "../src/core/pipeline/pipeline.js";
import { isSpooled, type SpooledFile } from "../src/core/presentation/message.js";
import { removeSpooled } from "../src/core/presentation/spool.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import type { ArrayPool } from "../src/flashblade/types.js";
import { silentLogger } from "../src/logger.js";
import { DEFAULT_API_TOKEN, simulatedArrayConfig, startSimulator } from "../src/simulator/index.js";
import { createSlackApp } from "../src/slack/app.js";
import { toSlack } from "../src/slack/blocks.js";
import { nextMessage } from "./e2e/ipc.js";
import { type BenchResult, type Figure, median, withGoal, writeResult } from "./report/result.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "15" },
    // The ack's ratio to the floor varies round to round on a shared machine (a round's p99 is its slowest
    // few requests); its median needs many rounds. A round takes well under a second.
    "ack-rounds": { type: "string", default: "30" },
    concurrent: { type: "string", default: "50" },
    iterations: { type: "string", default: "200" },
    "file-systems": { type: "string", default: "100000" },
    "sim-child": { type: "string" },
    /** `ack` runs (a) alone: a quick A/B of the ack path. */
    only: { type: "string" },
  },
});

function pipelineOver(pool: ArrayPool, arrays: { name: string; url: string }[]): Pipeline {
  return createPipeline({
    registry: createRegistry(RESOURCES),
    pool,
    config: configSchema.parse({
      arrays: arrays.map((a) => ({ name: a.name, address: a.url, api_token_env: "T" })),
      access: { default_role: "viewer" },
    }),
    identity: { groupsOf: async () => [], isRestricted: async () => false },
    store: createMemoryPendingStore(),
    audit: memoryAuditSink(),
    logger: silentLogger(),
    now: Date.now,
  });
}

const ms = (t0: number) => performance.now() - t0;
const actor = { kind: "person" as const, userId: "U1", channelId: "C1" };

async function main(): Promise<void> {
  const rounds = Number(values.rounds);
  const figures: Figure[] = [];
  // (a) acks under concurrency. Slack (the sender and the response_url receiver) and the array (a demo
  // simulator) each run in their own process, as they would: sharing the bot's event loop would count the load
  // generator's and the array's work as the bot's latency.
  const { child: arrayChild, url: arrayUrl, ca: arrayCa } = await simulatorChild("demo");
  const ackPool = createArrayPool(
    [
      {
        ...simulatedArrayConfig("lab-1", { url: arrayUrl, ca: arrayCa }),
        apiToken: new Secret(DEFAULT_API_TOKEN),
      },
    ],
    { logger: silentLogger() },
  );
  const ackPipeline = pipelineOver(ackPool, [{ name: "lab-1", url: arrayUrl }]);
  const secret = "bench-signing-secret-000";
  const n = Number(values.concurrent);
  const sender: ChildProcess = fork(new URL("./e2e/ack-sender.js", import.meta.url).pathname, [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { apiUrl } = await nextMessage<{ apiUrl: string }>(sender);
  const app = createSlackApp(
    parseSlackSection({
      mode: "http",
      botToken: "xoxb-bench",
      signingSecret: secret,
      apiUrl,
      port: 0,
      channelIntervalMs: 0,
    }),
    { host: "127.0.0.1", logger: silentLogger(), pipeline: ackPipeline },
  );
  const { port } = await app.start();
  // The floor: a bare node:http server in this process answering 200 at once, hit the same way.
  const bare = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end());
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
  const barePort = (bare.address() as AddressInfo).port;
  // Each round starts from a collected heap, the bot's and the bare server's alike (they share this process):
  // a collection left over from the last round's work would otherwise land on whichever round came next.
  const collect = (m: { gc?: true }) => {
    if (!m.gc) return;
    (globalThis as { gc?: () => void }).gc?.();
    sender.send({ collected: true });
  };
  sender.on("message", collect);
  sender.send({ port, barePort, secret, n, rounds: Number(values["ack-rounds"]) });
  const { ack50, ack99, ans50, ans99, bare99 } = await nextMessage<
    Record<"ack50" | "ack99" | "ans50" | "ans99" | "bare99", number[]>
  >(sender, "ack50");
  sender.off("message", collect);
  bare.close();
  await app.stop();
  // The same commands in Socket Mode: the sender plays Slack's WebSocket endpoint and times each envelope's ack.
  const socketApp = createSlackApp(
    parseSlackSection({
      mode: "socket",
      botToken: "xoxb-bench",
      appToken: "xapp-1-bench",
      apiUrl,
      port: 0,
      channelIntervalMs: 0,
    }),
    { host: "127.0.0.1", logger: silentLogger(), pipeline: ackPipeline },
  );
  await socketApp.start();
  sender.send({ socket: true });
  const { sack50, sack99 } = await nextMessage<Record<"sack50" | "sack99", number[]>>(sender);
  await socketApp.stop();
  sender.disconnect();
  await ackPool.close();
  arrayChild.disconnect();
  const goal = (text: string, met: boolean) => ({ text, met });
  figures.push(
    { what: `slash-command ack p50, ${n} concurrent (HTTP mode)`, unit: "ms", rounds: ack50 },
    // Issue 47's mark (issue 27's was 1.25×): the ack near the floor of the same rounds (a bare server), whatever
    // the machine.
    withGoal(
      {
        what: `slash-command ack p99, ${n} concurrent (HTTP mode)`,
        unit: "ms",
        rounds: ack99,
        baseline: { what: "a bare node:http server answering at once", rounds: bare99 },
      },
      "<=",
      1.1,
      "≤ 1.1× the bare floor",
      "ratio",
    ),
    { what: `slash-command ack p50, ${n} concurrent (Socket Mode)`, unit: "ms", rounds: sack50 },
    // Beside HTTP mode's in the summary: the same commands as envelopes over Slack's WebSocket.
    {
      what: `slash-command ack p99, ${n} concurrent (Socket Mode)`,
      unit: "ms",
      rounds: sack99,
      headline: true,
    },
    { what: `time to the answer p50, ${n} concurrent`, unit: "ms", rounds: ans50 },
    { what: `time to the answer p99, ${n} concurrent`, unit: "ms", rounds: ans99, headline: true },
  );

  if (values.only === "ack") {
    console.log(JSON.stringify(figures, null, 2));
    return;
  }

  // (b) fs list end to end vs one raw REST call of the same list, interleaved. The simulator shares this
  // process here: both sides pay for it alike, and the figure is their difference.
  const sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  const pool = createArrayPool([simulatedArrayConfig("lab-1", sim)], { logger: silentLogger() });
  const pipeline = pipelineOver(pool, [{ name: "lab-1", url: sim.url }]);
  const raw = new Pool(sim.url, { connections: 1, connect: { ca: sim.ca } });
  const login = await raw.request({
    method: "POST",
    path: "/api/login",
    headers: { "api-token": DEFAULT_API_TOKEN },
  });
  await login.body.text();
  const token = String(login.headers["x-auth-token"]);
  const rawCall = async () => {
    const res = await raw.request({
      method: "GET",
      path: "/api/1.12/file-systems?filter=destroyed%3D%27false%27&limit=1000",
      headers: { "x-auth-token": token },
    });
    JSON.parse(await res.body.text());
  };
  const e2e = async () => {
    const effects: Effect[] = await pipeline.handleCommand({ text: "fs list", actor });
    for (const e of effects) if (e.kind === "reply") toSlack(e.message);
  };
  const iterations = Number(values.iterations);
  const viaBot: number[] = [];
  const viaRaw: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < iterations; i++) {
      let t0 = performance.now();
      await e2e();
      a.push(ms(t0));
      t0 = performance.now();
      await rawCall();
      b.push(ms(t0));
    }
    if (r === 0) continue; // warm-up round
    viaBot.push(median(a));
    viaRaw.push(median(b));
  }
  figures.push({
    what: "`fs list` end to end (pipeline + Block Kit), 11 file systems",
    unit: "ms",
    rounds: viaBot,
    baseline: { what: "one raw REST call of the same list", rounds: viaRaw },
    goal: goal("≤ 1.1× raw + 3 ms", median(viaBot) <= 1.1 * median(viaRaw) + 3),
  });
  await raw.close();
  await pool.close();
  await sim.close();

  // (c) 100,000 file systems through the bot, page by page.
  const count = Number(values["file-systems"]);
  const { child, ...big } = await simulatorChild(String(count));
  const bigPool = createArrayPool(
    [
      {
        ...simulatedArrayConfig("big", { url: big.url, ca: big.ca }),
        apiToken: new Secret(DEFAULT_API_TOKEN),
        timeouts: { connectMs: 5000, readMs: 120_000 },
      },
    ],
    { logger: silentLogger() },
  );
  const bigPipeline = pipelineOver(bigPool, [{ name: "big", url: big.url }]);
  (globalThis as { gc?: () => void }).gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  let rows = 0;
  let commands = 0;
  const spooled: SpooledFile[] = [];
  let text: string | undefined = "fs list --array big";
  while (text !== undefined && commands < 1000) {
    commands++;
    const effects: Effect[] = await bigPipeline.handleCommand({ text, actor });
    text = undefined;
    for (const e of effects) {
      if (e.kind !== "reply") continue;
      const payload = toSlack(e.message);
      for (const f of payload.files) {
        if (isSpooled(f.content)) spooled.push(f.content);
        else rows += String(f.content).trimEnd().split("\r\n").length - 1;
      }
      text = /For the next ones: `\/array ([^`]+)`/.exec(JSON.stringify(e.message))?.[1];
    }
  }
  const seconds = ms(t0) / 1000;
  clearInterval(sampler);
  // Counted after the measurement: reading the files back is the reader's memory, not the bot's.
  for (const f of spooled) {
    rows += readFileSync(f.path, "utf8").trimEnd().split("\r\n").length - 1;
    await removeSpooled(f);
  }
  figures.push(
    {
      what: `${count.toLocaleString("en-US")} file systems listed into one CSV by \`fs list\` (${commands} command${commands === 1 ? "" : "s"})`,
      unit: "s",
      rounds: [seconds],
      headline: true,
    },
    {
      what: "CSV rows written",
      unit: "count",
      rounds: [rows],
      goal: goal(`= ${count.toLocaleString("en-US")}`, rows === count),
    },
    {
      what: "RSS growth while listing",
      unit: "MiB",
      rounds: [(peak - rss0) / 2 ** 20],
      goal: goal("< 100 MiB", (peak - rss0) / 2 ** 20 < 100),
    },
  );
  await bigPool.close();
  child.disconnect();

  const result: BenchResult = {
    name: "e2e",
    title: "End to end through the bot (`bench/e2e.ts`)",
    command: "npm run bench:e2e",
    figures,
    notes: [
      "Ack latency is measured from a separate process playing Slack's sender: 50 signed POSTs at once, each built and signed before its clock starts. Slack's answer side (the Web API and response_url) runs in a process of its own and stamps each answer's arrival, so the process timing the acks receives nothing else; the array (a demo simulator) is a fourth process. The baseline is a bare node:http server in the bot's process, sent the same signed requests in the same rounds: the floor this machine and loopback impose. The bot's round and the bare one alternate which goes first, and each starts after a full GC of the bot's process.",
      "(c) is one `fs list`: past the 10,000 rows kept in memory, every row is streamed page by page from the array into one CSV file, which is the attachment; RSS growth is the bot's process only (the simulator runs in a child process).",
    ],
  };
  console.log(JSON.stringify(result, null, 2));
  writeResult(result);
}

// Child mode: serve a scale simulator until the parent disconnects.
if (values["sim-child"] !== undefined) {
  const what = values["sim-child"];
  const sim = await startSimulator(
    what === "demo"
      ? { arrayName: "lab-1", scenario: "demo" }
      : { arrayName: "big", scenario: { scale: { fileSystems: Number(what) } } },
  );
  process.send?.({ url: sim.url, ca: sim.ca });
  process.on("disconnect", () => void sim.close().then(() => process.exit(0)));
} else {
  await main();
}

/** A simulator in a child process ("demo", or a file system count for a scale scenario), served until disconnect. */
async function simulatorChild(what: string): Promise<{ child: ChildProcess; url: string; ca: string }> {
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ["--sim-child", what], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { url, ca } = await nextMessage<{ url: string; ca: string }>(child);
  return { child, url, ca };
}
