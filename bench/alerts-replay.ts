/**
 * Replays the 676 real lab alerts (../shared/data/lab-array-alerts.json) through the simulator and the alert
 * engine in compressed time, and prints what the channels would have seen.
 * Writes bench/results/alerts-replay.json.
 * Run: npm run bench:replay [-- path-to-fixture]
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseLabAlerts } from "../src/alerts/replay/lab-data.js";
import { runReplay } from "../src/alerts/replay/replay.js";
import { type Figure, withGoal, writeResult } from "./report/result.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const path = process.argv[2] ?? resolve(repo, "../shared/data/lab-array-alerts.json");
const alerts = parseLabAlerts(JSON.parse(readFileSync(path, "utf8")));
const r = await runReplay({ alerts });

const out = (s: string) => process.stdout.write(`${s}\n`);
out(`alerts ${r.alerts}, events ${r.events}, polls ${r.polls}, wall ${r.wallMs} ms`);
out(
  `top-level posts ${r.posts} (alert cards ${r.engine.cards}, storm summaries ${r.stormSummaries} listing ${r.alertsInSummaries} alerts)`,
);
out(`updates in place ${r.updates}, thread lines ${r.threadLines}`);
out(`reopenings collapsed into an existing message ${r.collapsedReopenings}`);
out(`alerts opened and closed between two polls (recorded, not posted) ${r.closedBeforeSeen}`);
out(`open at the end ${r.openAtEnd}, not visible ${r.openNotVisible.length}`);
out("families with the most messages (channel, code/component, alerts → messages):");
for (const f of r.families.slice(0, 12)) out(`  ${f.channel} ${f.family}: ${f.alerts} → ${f.messages}`);

const count = (what: string, n: number, headline = false): Figure => ({
  what: `alerts replay: ${what}`,
  unit: "count",
  rounds: [n],
  headline,
});
const worst = r.families[0];
writeResult({
  name: "alerts-replay",
  title: "Alerts: replay of the real lab alerts (`bench/alerts-replay.ts`)",
  command: "npm run bench:replay",
  figures: [
    count(`top-level posts for ${r.alerts} real lab alerts`, r.posts, true),
    count("storm summaries", r.stormSummaries),
    count("updates in place", r.updates),
    count("thread lines", r.threadLines),
    count("reopenings collapsed into an existing message", r.collapsedReopenings, true),
    count("alerts opened and closed between two polls (recorded, not posted)", r.closedBeforeSeen),
    count(
      `messages of the worst flapping family (${worst?.family ?? "none"}, ${worst?.alerts ?? 0} alerts)`,
      worst?.messages ?? 0,
      true,
    ),
    count("open at the end", r.openAtEnd),
    withGoal(count("open alerts not visible in a channel", r.openNotVisible.length), "=", 0, "= 0"),
  ],
  notes: [`${r.events} events in ${r.polls} polls, replayed in compressed time (${r.wallMs} ms wall).`],
});
