/**
 * Slack layer benchmark:
 *  (a) rendering the largest answer, a 10,000-row listing, to Block Kit (one table, CSV of every row);
 *  (b) the paced client's own cost per Web API call: the same sequential users.info calls through
 *      PacedSlackClient and through the bare WebClient, against a local HTTP server answering {ok:true}.
 * Writes bench/results/slack.json.
 * Run: npm run bench:slack [-- --iterations N]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { webApi } from "@slack/bolt";
import type { Message } from "../src/core/presentation/message.js";
import { silentLogger } from "../src/logger.js";
import { toSlack } from "../src/slack/blocks.js";
import { boltLogger } from "../src/slack/bolt-logger.js";
import { PacedSlackClient } from "../src/slack/paced-client.js";
import { type Figure, writeResult } from "./report/result.js";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "300" } } });
const N = Number(values.iterations);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

const figures: Figure[] = [];

function listing(n: number): Message {
  const rows = Array.from({ length: n }, (_, i) => ({
    name: `fs-${String(i).padStart(5, "0")}`,
    size: `${(i % 97) + 1} TiB`,
    used: `${i % 100}%`,
    protocols: "NFS, SMB",
  }));
  return {
    text: `${n} file systems`,
    blocks: [
      { type: "header", text: `${n} file systems on array lab-1` },
      {
        type: "table",
        columns: [
          { key: "name", label: "Name" },
          { key: "size", label: "Size", align: "right" },
          { key: "used", label: "Used", align: "right" },
          { key: "protocols", label: "Protocols" },
        ],
        rows,
        totalRows: n,
      },
    ],
  };
}

function benchRender(): void {
  const msg = listing(10_000);
  const times: number[] = [];
  for (let i = 0; i < Math.max(10, N / 10); i++) {
    const t0 = performance.now();
    const p = toSlack(msg);
    times.push(performance.now() - t0);
    if (p.files.length !== 1) throw new Error("expected the CSV");
  }
  figures.push({
    what: "slack: Block Kit for a 10,000-row listing incl. its CSV",
    unit: "ms",
    rounds: times,
  });
  console.log(
    `(a) toSlack, 10,000-row listing incl. CSV: median ${median(times).toFixed(2)} ms over ${times.length} runs`,
  );
}

async function benchClient(): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true,"user":{"id":"U1"}}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  const web = new webApi.WebClient("xoxb-bench", {
    slackApiUrl: url,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    logger: boltLogger(silentLogger()),
  });
  const paced = new PacedSlackClient(web, { channelIntervalMs: 0, maxRetries: 0 }, silentLogger());
  const time = async (f: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      await f();
      xs.push(performance.now() - t0);
    }
    return xs;
  };
  // Warm up connections and JIT, then alternate so drift affects both alike.
  await time(() => web.apiCall("users.info", { user: "U1" }));
  const bareTimes = await time(() => web.apiCall("users.info", { user: "U1" }));
  const pacedTimes = await time(() => paced.call("users.info", { user: "U1" }));
  const bare2Times = await time(() => web.apiCall("users.info", { user: "U1" }));
  const [bare, through, bare2] = [median(bareTimes), median(pacedTimes), median(bare2Times)];
  figures.push({
    what: "slack: `users.info` through the paced client (Bottleneck), per call",
    unit: "ms",
    rounds: [through],
    baseline: { what: "a bare WebClient, before and after", rounds: [bare, bare2] },
  });
  console.log(
    `(b) users.info, median per call: bare WebClient ${bare.toFixed(2)} / ${bare2.toFixed(2)} ms, ` +
      `paced ${through.toFixed(2)} ms (overhead ≈ ${(through - (bare + bare2) / 2).toFixed(2)} ms) over ${N} calls`,
  );
  await paced.stop();
  server.close();
}

benchRender();
await benchClient();
writeResult({
  name: "slack",
  title: "Slack layer (`bench/slack.ts`)",
  command: "npm run bench:slack",
  figures,
  notes: [
    `Web API calls against a local HTTP server answering {ok:true}, ${N} sequential calls per side; each side's figure is its median per call.`,
  ],
});
