/**
 * The bot as it runs in production, in a child process: the built entry point in Slack HTTP mode against the fake
 * Web API and a simulated array, so a test can do to it what only happens to a process (a stdout nobody reads,
 * signals, a deadline on its exit).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { DATA_DIR_ENV } from "../../src/config/data-dir.js";
import { DEFAULT_API_TOKEN, type Simulator } from "../../src/simulator/index.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, interactiveBody, signedPost } from "../fakes/signed-request.js";
import type { FakeSlackApi } from "../fakes/slack-api-server.js";

const root = new URL("../..", import.meta.url).pathname;
export const SIGNING_SECRET = "bot-process-signing-secret";

/** Builds the entry point under dist/<name> (ignored by git) and returns its path. */
export async function buildBot(name: string): Promise<string> {
  const outDir = join(root, "dist", name);
  mkdirSync(outDir, { recursive: true });
  // Type errors elsewhere in the tree must not stop the emit; the entry file existing is what counts.
  await promisify(execFile)(
    join(root, "node_modules", ".bin", "tsc"),
    ["-p", join(root, "tsconfig.build.json"), "--outDir", outDir],
    { cwd: root },
  ).catch(() => undefined);
  const entry = join(outDir, "src", "main.js");
  if (!existsSync(entry)) throw new Error(`the build left no ${entry}`);
  return entry;
}

export interface BotProcess {
  child: ChildProcess;
  port: number;
  /** Lines read from stdout before `stopReading`. */
  lines: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** From here on nobody reads the bot's stdout: the pipe fills and stays full. */
  stopReading(): void;
  /** Sends a signed slash command (from U1 unless `userId`); resolves with the acknowledgement's HTTP status. */
  command(text: string, responseId: string, userId?: string): Promise<number>;
  /** Sends a signed interactivity payload (a click); resolves with the acknowledgement's HTTP status. */
  interactive(payload: Record<string, unknown>): Promise<number>;
  /** The value of a counter or gauge on /metrics (0 when absent). */
  metric(name: string): Promise<number>;
}

export interface BotProcessOptions {
  entry: string;
  dir: string;
  sim: Simulator;
  fake: FakeSlackApi;
  /** Lines appended to the configuration (log_level, shutdown_grace, store, …). */
  extraConfig?: string[];
  /** Slack's Web API address; the fake's unless a test makes Slack unreachable. */
  apiUrl?: string;
}

export async function startBotProcess(o: BotProcessOptions): Promise<BotProcess> {
  mkdirSync(o.dir, { recursive: true });
  writeFileSync(join(o.dir, "ca.pem"), o.sim.ca);
  writeFileSync(
    join(o.dir, "bot.yml"),
    [
      "arrays:",
      "  - name: lab-1",
      `    address: ${o.sim.url}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  viewer: { users: [U1] }",
      "  operator: { users: [U2, U3] }",
      ...(o.extraConfig ?? []),
      "",
    ].join("\n"),
  );
  const child = spawn(process.execPath, [o.entry], {
    cwd: o.dir,
    env: {
      PATH: process.env["PATH"] ?? "",
      [DATA_DIR_ENV]: join(o.dir, "data"),
      PORT: "0",
      ARRAY_CHATOPS_CONFIG: join(o.dir, "bot.yml"),
      LAB_TOKEN: DEFAULT_API_TOKEN,
      SLACK_BOT_TOKEN: "xoxb-bot-process",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: o.apiUrl ?? o.fake.apiUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    reader.on("line", (l) => {
      lines.push(l);
      if (l.includes('"slack app started"')) resolve((JSON.parse(l) as { port: number }).port);
    });
    void exited.then(({ code }) =>
      reject(new Error(`exited ${code} before starting: ${stderr}${lines.join("\n")}`)),
    );
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    lines,
    stderr: () => stderr,
    exited,
    stopReading() {
      reader.close();
      child.stdout?.pause();
    },
    async command(text, responseId, userId = "U1") {
      const body = commandBody(slashCommand({ text, userId, responseUrl: o.fake.responseUrl(responseId) }));
      return (await signedPost(`${base}/slack/events`, body, { secret: SIGNING_SECRET })).status;
    },
    async interactive(payload) {
      return (await signedPost(`${base}/slack/events`, interactiveBody(payload), { secret: SIGNING_SECRET }))
        .status;
    },
    async metric(name) {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
    },
  };
}
