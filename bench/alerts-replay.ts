/**
 * Replays the 676 real lab alerts (../shared/data/lab-array-alerts.json) through the simulator and the alert
 * engine in compressed time, and prints what the channels would have seen.
 * Run: npx tsc -p tsconfig.build.json && node dist/bench/alerts-replay.js [path-to-fixture]
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseLabAlerts } from "../src/alerts/replay/lab-data.js";
import { runReplay } from "../src/alerts/replay/replay.js";

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
