import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/simulator/cli-args.js";
import { defaultVersions } from "../../src/simulator/options.js";
import { SIM_VERSION } from "../helpers/wire.js";

const root = join(import.meta.dirname, "..", "..");
const cliJs = join(root, "dist", "src", "simulator", "cli.js");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sim-cli-"));
  // Errors in files still being written by others must not stop the emit of ours, so the exit code is ignored.
  await promisify(execFile)(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
    {
      cwd: root,
    },
  ).catch(() => undefined);
  if (!existsSync(cliJs)) throw new Error(`build did not produce ${cliJs}`);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [cliJs, ...args], { cwd: root });
}

/** Collects stdout until `marker` appears. */
function readUntil(child: ChildProcessWithoutNullStreams, marker: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes(marker)) {
        child.stdout.off("data", onData);
        resolve(text);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`CLI exited with ${code} before printing "${marker}": ${text}`)),
    );
  });
}

function exited(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("simulator CLI", () => {
  it("starts N arrays, prints their URLs and the token, serves HTTPS, and exits 0 on SIGTERM", async () => {
    const caFile = join(dir, "ca.pem");
    const child = run([
      "--port",
      "0",
      "--arrays",
      "2",
      "--api-token",
      "T-cli",
      "--ca-out",
      caFile,
      "--log-level",
      "silent",
    ]);
    const banner = await readUntil(child, "Press Ctrl+C");
    const urls = [...banner.matchAll(/^(sim-\d)\s+(https:\/\/\S+\/api)/gm)].map((m) => [m[1], m[2]]);
    expect(urls.map((u) => u[0])).toEqual(["sim-1", "sim-2"]);
    expect(banner).toContain("API token: T-cli");
    const agent = new Agent({ connect: { ca: await readFile(caFile, "utf8") } });
    try {
      for (const [, apiUrl] of urls) {
        const versions = await request(`${apiUrl}/api_version`, { dispatcher: agent });
        expect(versions.statusCode).toBe(200);
        // The child inherits the run's ARRAY_SIM_VERSIONS, so it serves the version the suite negotiates.
        expect(await versions.body.json()).toMatchObject({ versions: expect.arrayContaining([SIM_VERSION]) });
        const login = await request(`${apiUrl}/login`, {
          method: "POST",
          headers: { "api-token": "T-cli" },
          dispatcher: agent,
        });
        await login.body.dump();
        expect(login.statusCode).toBe(200);
      }
    } finally {
      await agent.close();
    }
    const done = exited(child);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Simulator stopped.");
  });

  it("prints a clear error and the usage for bad arguments, exiting 2", async () => {
    const result = await exited(run(["--port", "eighty"]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--port must be a whole number");
    expect(result.stderr).toContain("Usage: npm run simulator");
    const unknown = await exited(run(["--colour", "blue"]));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--colour");
  });
});

describe("CLI argument validation", () => {
  it("applies the documented defaults", () => {
    const r = parseCliArgs([]);
    expect(r).toEqual({
      ok: true,
      args: expect.objectContaining({
        port: 8443,
        arrays: 1,
        "api-token": "T-demo",
        // ARRAY_SIM_VERSIONS when set (each run of the suite sets it), else CURRENT_ARRAY_VERSIONS.
        versions: defaultVersions(),
        scenario: "demo",
        "idle-timeout": 1_800_000,
        control: false,
      }),
    });
  });

  it("parses scenarios, durations and flags", () => {
    const r = parseCliArgs([
      "--scenario",
      "scale:100000",
      "--idle-timeout",
      "90s",
      "--control",
      "--arrays",
      "3",
    ]);
    expect(r.ok && r.args).toMatchObject({
      scenario: { scale: { fileSystems: 100000 } },
      "idle-timeout": 90_000,
      control: true,
      arrays: 3,
    });
  });

  it.each([
    [["--idle-timeout", "30"], "needs a number and a unit"],
    [["--scenario", "huge"], 'unknown scenario "huge"'],
    [["--versions", "3.0"], "names no known REST version"],
    [["--cert", "a.pem"], "--cert and --key go together"],
    [["--arrays", "0"], "--arrays must be at least 1"],
    [["--port", "65535", "--arrays", "2"], "past port 65535"],
    [["--log-level", "loud"], "expected one of"],
  ])("rejects %j", (argv, message) => {
    const r = parseCliArgs(argv);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
});
