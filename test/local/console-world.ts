/**
 * A console run the way a person runs it: `main()` with a configuration file (one demo simulator over HTTPS,
 * alice admin, bob operator, a SQLite store in the run's directory) and piped lines; what it printed and its
 * exit code come back. Shared by the console tests that need a durable store.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { type MainIO, main } from "../../src/main.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../src/simulator/index.js";

export interface ConsoleWorld {
  sim: Simulator;
  /** The run's directory: bot.yml, ca.pem and the store's `state/`. */
  dir: string;
  run(lines: readonly string[]): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

/** `main()` as `npm start` runs it, with `lines` piped in: its exit code and what it wrote to each stream. */
export async function runMain(
  argv: readonly string[],
  lines: readonly string[],
  env: Readonly<Record<string, string>> = {},
  io: Pick<MainIO, "demoAsShipped"> = {},
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const code = await main({
    argv: [...argv],
    env: { ...env },
    stdin: Readable.from([`${lines.join("\n")}\n`]),
    stdout,
    stderr,
    interactive: false,
    ...io,
  });
  return { code, out, err };
}

export async function startConsoleWorld(prefix: string): Promise<ConsoleWorld> {
  const sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "ca.pem"), sim.ca);
  writeFileSync(
    join(dir, "bot.yml"),
    [
      "arrays:",
      "  - name: lab-1",
      `    address: ${sim.url}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  admin: { users: [alice] }",
      "  operator: { users: [bob] }",
      "store:",
      "  kind: sqlite",
      "  data_dir: state",
      "",
    ].join("\n"),
  );
  return {
    sim,
    dir,
    run: (lines) => runMain(["--config", join(dir, "bot.yml")], lines, { LAB_TOKEN: DEFAULT_API_TOKEN }),
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
