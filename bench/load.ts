/**
 * `npm run load`: the load test on loopback, bounded in time and count. Full form by default: 100 commands/s
 * for 60 s from 40 users over 200 simulated arrays with faults; `--short` is the 10-second CI form.
 * Prints the reconciliation and p50/p95/p99 per kind, writes bench/results/load.json, exits 1 on a mismatch.
 *   npm run load [-- --rate 100 --seconds 60 --arrays 200 --users 40 --no-faults --short]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { runLoad } from "./load/run-load.js";
import { type BenchResult, type Figure, withGoal } from "./report/result.js";

const { values } = parseArgs({
  options: {
    rate: { type: "string" },
    seconds: { type: "string" },
    arrays: { type: "string" },
    users: { type: "string" },
    short: { type: "boolean", default: false },
    "no-faults": { type: "boolean", default: false },
    out: { type: "string", default: "bench/results/load.json" },
  },
});
const short = values.short === true;
const opts = {
  rate: Number(values.rate ?? (short ? 30 : 100)),
  seconds: Number(values.seconds ?? (short ? 10 : 60)),
  arrays: Number(values.arrays ?? (short ? 20 : 200)),
  users: Number(values.users ?? 40),
  faults: values["no-faults"] !== true,
  log: (l: string) => console.log(l),
};
console.log(
  `load: ${opts.rate}/s for ${opts.seconds}s over ${opts.arrays} arrays, ${opts.users} users, faults ${opts.faults ? "on" : "off"}`,
);
const report = await runLoad(opts);
const r = report.reconciliation;
console.log(
  `sent ${JSON.stringify(report.sent)}; answered ${report.answered}, unanswered ${report.unanswered}`,
);
console.log(
  `applied on the arrays: ${JSON.stringify(r.applied)}; Slack 429s: ${report.slack429}; approvals answered without the dialog: ${report.approvalsWithoutDialog}`,
);
console.log(
  `reconciliation: ${r.ok ? "OK" : "MISMATCH"} (applied twice ${r.appliedTwice.length}, lost ${r.lost.length}, ` +
    `unreported ${r.unreported.length}, driver errors ${r.driverErrors.length})`,
);
for (const [kind, l] of Object.entries(report.latencyMs)) {
  console.log(
    `  ${kind.padEnd(9)} n=${String(l.n).padStart(5)}  p50 ${l.p50.toFixed(1)} ms  p95 ${l.p95.toFixed(1)} ms  p99 ${l.p99.toFixed(1)} ms`,
  );
}
console.log(
  `RSS after warm-up ${report.rssMiB.afterWarmUp.toFixed(0)} MiB, at the end ${report.rssMiB.end.toFixed(0)} MiB`,
);
// The report (bench/report/write.ts) shows the load test beside the benchmarks, from this result.
const zero = (what: string, n: number): Figure =>
  withGoal({ what, unit: "count", rounds: [n] }, "=", 0, "= 0");
/** The goals: approvals answered within a second at p99, memory within 256 MiB. */
const APPROVE_P99_MS = 1000;
const RSS_MIB = 256;
const latency = (kind: string, l: { n: number; p50: number; p95: number; p99: number }): Figure[] =>
  (["p50", "p95", "p99"] as const).map((p): Figure => {
    const f: Figure = { what: `load: ${kind} (n=${l.n}) ${p}`, unit: "ms", rounds: [l[p]] };
    if (p !== "p99") return f;
    return kind === "approve" ? withGoal(f, "<", APPROVE_P99_MS, "< 1 s") : { ...f, headline: true };
  });
const rss = (what: string, mib: number): Figure =>
  withGoal({ what, unit: "MiB", rounds: [mib] }, "<=", RSS_MIB, `≤ ${RSS_MIB} MiB`);
const result: BenchResult & { report: typeof report } = {
  name: "load",
  title: `Load test (\`bench/load.ts\`): ${opts.rate} commands/s for ${opts.seconds} s over ${opts.arrays} arrays, faults ${opts.faults ? "on" : "off"}`,
  command: `npm run load${short ? " -- --short" : ""}`,
  figures: [
    ...Object.entries(report.latencyMs).flatMap(([kind, l]) => latency(kind, l)),
    zero("load: requests left unanswered", report.unanswered),
    zero("load: effects applied twice", r.appliedTwice.length),
    zero("load: effects lost", r.lost.length),
    zero("load: effects applied but not reported", r.unreported.length),
    rss("load: RSS after warm-up", report.rssMiB.afterWarmUp),
    rss("load: RSS at the end", report.rssMiB.end),
    {
      what: "load: RSS growth after warm-up",
      unit: "MiB",
      rounds: [report.rssMiB.end - report.rssMiB.afterWarmUp],
    },
  ],
  notes: [
    `Sent ${JSON.stringify(report.sent)}; applied on the arrays ${JSON.stringify(r.applied)}; Slack 429s ${report.slack429}; wall ${report.wallSeconds.toFixed(0)} s.`,
  ],
  report,
};
const out = values.out ?? "bench/results/load.json";
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
process.exit(r.ok && report.unanswered === 0 ? 0 : 1);
