/**
 * The benchmarks `npm run bench` runs, as data: bench/run.ts runs exactly these, in this order, and the report
 * (bench/report/write.ts) reads only their results. Each one writes bench/results/<name>.json (a BenchResult
 * whose `name` and `command` are the ones here); run.ts counts a bench that writes none as failed, and
 * test/bench/report-sources.test.ts checks that every row of docs/benchmarks.md names one of them.
 */
export interface Bench {
  /** The result file's name (bench/results/<name>.json) and the script's (dist/bench/<name>.js). */
  name: string;
  /** How a reader reproduces its figures alone; the report's command column. */
  command: string;
  /** Arguments of the full run and of `npm run bench -- --quick` (tiny counts, for developing the report). */
  full: string[];
  quick: string[];
  /** Needs the lab alert fixture (../shared/data/lab-array-alerts.json) as its last argument. */
  fixture?: true;
  /** Its process is the bot's: run with the image's heap settings (bench/heap.ts; its npm script says them too). */
  heap?: true;
}

export const BENCHES: readonly Bench[] = [
  {
    name: "alerts-polling",
    command: "npm run bench:alerts",
    heap: true,
    full: [],
    quick: ["--arrays", "10", "--cycles", "3"],
  },
  { name: "alerts-replay", command: "npm run bench:replay", full: [], quick: [], fixture: true },
  {
    name: "client",
    command: "npm run bench:client",
    full: [],
    quick: ["--iterations", "100", "--rounds", "2", "--fan-out-rounds", "3"],
  },
  { name: "commands", command: "npm run bench:commands", full: [], quick: ["--iterations", "20"] },
  {
    name: "e2e",
    command: "npm run bench:e2e",
    full: [],
    quick: [
      "--rounds",
      "2",
      "--ack-rounds",
      "2",
      "--concurrent",
      "10",
      "--iterations",
      "20",
      "--file-systems",
      "20000",
    ],
  },
  {
    name: "fleet",
    command: "npm run bench:fleet",
    full: [],
    quick: ["--sizes", "5,20", "--load-seconds", "10", "--small-load-seconds", "10", "--cycles", "2"],
  },
  {
    name: "fleet-idle",
    command: "npm run bench:fleet-idle",
    heap: true,
    full: [],
    quick: ["--arrays", "100", "--rounds", "1"],
  },
  { name: "insight", command: "npm run bench:insight", full: [], quick: ["--iterations", "2"] },
  { name: "load", command: "npm run load", full: [], quick: ["--short"] },
  {
    name: "simulator",
    command: "npm run bench:simulator",
    full: [],
    quick: ["--requests", "500", "--file-systems", "5000"],
  },
  { name: "slack", command: "npm run bench:slack", full: [], quick: ["--iterations", "30"] },
  {
    name: "soak",
    command: "npm run bench:soak",
    heap: true,
    full: [],
    quick: ["--seconds", "10", "--rate", "10", "--warm-up", "4"],
  },
  { name: "startup", command: "npm run bench:startup", full: [], quick: ["--runs", "1"] },
  { name: "store", command: "npm run bench:store", full: [], quick: ["--ops", "200", "--rounds", "1"] },
];

export const benchNamed = (name: string): Bench | undefined => BENCHES.find((b) => b.name === name);
