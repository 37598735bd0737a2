/**
 * The container's start, outside Docker (no engine here), done the way the Dockerfile does it: production
 * dependencies installed with `npm ci --omit=dev` into a fresh directory, the build output beside them, and
 * the runtime stage's CMD started with its ENV, in Slack HTTP mode against the fake Web API and a simulated
 * array. Then /healthz (also through the HEALTHCHECK's own command), a signed command, and SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR_ENV } from "../../src/config/data-dir.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../src/simulator/index.js";
import { DEFAULT_DB_FILE } from "../../src/store/types.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { envOf, execForm, parseDockerfile, type Stage } from "./dockerfile.js";

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;
const SECRET = "container-signing-secret";
/** node:24-slim ships npm 11; the install below uses the same major. */
const IMAGE_NPM = "npm@11";

const stages = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"));
const runtime = stages.at(-1) as Stage;

function installCommand(): string[] {
  const deps = stages.find((s) =>
    s.instructions.some((i) => i.op === "RUN" && i.args.includes("--omit=dev")),
  );
  const line = deps?.instructions.find((i) => i.op === "RUN" && i.args.includes("--omit=dev"))?.args ?? "";
  const ci =
    line
      .split("&&")
      .map((s) => s.trim())
      .find((s) => s.startsWith("npm ci")) ?? "";
  return ci.split(/\s+/).slice(1);
}

describe("the container's start command, as the Dockerfile runs it", () => {
  let appDir: string;
  let fake: FakeSlackApi;
  let sim: Simulator;
  let child: ChildProcess | undefined;
  let port = 0;
  const stdout: string[] = [];

  beforeAll(async () => {
    // The install is reused while package.json and the lockfile are unchanged.
    const key = createHash("sha256")
      .update(readFileSync(join(root, "package.json")))
      .update(readFileSync(join(root, "package-lock.json")))
      .update(installCommand().join(" "))
      .digest("hex")
      .slice(0, 16);
    const cache = join(root, "node_modules", ".cache", "array-chatops-container", key);
    if (!existsSync(join(cache, "node_modules", ".package-lock.json"))) {
      rmSync(cache, { recursive: true, force: true });
      mkdirSync(cache, { recursive: true });
      cpSync(join(root, "package.json"), join(cache, "package.json"));
      cpSync(join(root, "package-lock.json"), join(cache, "package-lock.json"));
      await run("npx", ["-y", IMAGE_NPM, "ci", ...installCommand()], { cwd: cache, maxBuffer: 64 << 20 });
    }
    appDir = mkdtempSync(join(tmpdir(), "array-chatops-image-"));
    cpSync(join(cache, "node_modules"), join(appDir, "node_modules"), { recursive: true });
    cpSync(join(root, "package.json"), join(appDir, "package.json"));
    // The build stage's `npm run build`, emitted into the image directory instead of the work tree.
    await run(
      join(root, "node_modules", ".bin", "tsc"),
      ["-p", join(root, "tsconfig.build.json"), "--outDir", join(appDir, "dist")],
      {
        cwd: root,
      },
    ).catch(() => undefined);
    expect(existsSync(join(appDir, "dist", "src", "main.js"))).toBe(true);
    // Dev dependencies really are absent, so nothing at run time can lean on them.
    expect(existsSync(join(appDir, "node_modules", "vitest"))).toBe(false);

    fake = await FakeSlackApi.start();
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    const config = join(appDir, "config");
    mkdirSync(config);
    writeFileSync(join(config, "ca.pem"), sim.ca);
    writeFileSync(
      join(config, "bot.yml"),
      [
        "arrays:",
        "  - name: lab-1",
        `    address: ${sim.url}`,
        "    api_token_env: LAB_TOKEN",
        "    ca_file: ca.pem",
        "access:",
        "  viewer: { users: [U1] }",
        "",
      ].join("\n"),
    );
    // Mounted read-only, as in the documented `docker run` (root ignores the mode, so the test also checks
    // below that nothing was written there).
    chmodSync(config, 0o555);
  }, 20 * 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await fake?.close();
    await sim?.close();
    if (appDir) {
      chmodSync(join(appDir, "config"), 0o755);
      rmSync(appDir, { recursive: true, force: true });
    }
  });

  it("is non-root and checks its health on /healthz", () => {
    expect(runtime.from).toMatch(/node:24-slim|NODE_IMAGE/);
    const user = runtime.instructions.filter((i) => i.op === "USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toBe("root");
    expect(runtime.instructions.find((i) => i.op === "HEALTHCHECK")?.args).toContain("/healthz");
    expect(installCommand()).toContain("--omit=dev");
  });

  it("keeps its store on the data volume, which the runtime user owns", () => {
    const dataDir = envOf(runtime)[DATA_DIR_ENV];
    expect(dataDir).toBe("/app/data");
    expect(runtime.instructions.find((i) => i.op === "VOLUME")?.args).toContain(`"${dataDir}"`);
    const setup = runtime.instructions.find((i) => i.op === "RUN" && i.args.includes("chown"))?.args ?? "";
    expect(setup).toMatch(new RegExp(`mkdir -p .*${dataDir}`));
    expect(setup).toContain(`chown node:node ${dataDir}`);
  });

  it("starts in Slack HTTP mode, serves health, answers a signed command, and stops on SIGTERM", async () => {
    const [cmd, ...args] = execForm(runtime.instructions.find((i) => i.op === "CMD")?.args ?? "[]");
    expect(cmd).toBe("node");
    child = spawn(process.execPath, args, {
      cwd: appDir,
      env: {
        PATH: process.env["PATH"] ?? "",
        ...envOf(runtime),
        // The image's /app/data volume, here inside the image directory.
        [DATA_DIR_ENV]: join(appDir, "data"),
        PORT: "0",
        ARRAY_CHATOPS_CONFIG: join(appDir, "config", "bot.yml"),
        LAB_TOKEN: DEFAULT_API_TOKEN,
        SLACK_BOT_TOKEN: "xoxb-container",
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: fake.apiUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    port = await new Promise<number>((resolve, reject) => {
      const lines = createInterface({ input: child?.stdout as NodeJS.ReadableStream });
      lines.on("line", (l) => {
        stdout.push(l);
        if (l.includes('"slack app started"')) resolve((JSON.parse(l) as { port: number }).port);
      });
      exited.then((code) =>
        reject(new Error(`exited ${code} before starting: ${stderr}${stdout.join("\n")}`)),
      );
    });

    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const [hcCmd, ...hcArgs] = execForm(
      runtime.instructions.find((i) => i.op === "HEALTHCHECK")?.args ?? "[]",
    );
    expect(hcCmd).toBe("node");
    await expect(run(process.execPath, hcArgs, { env: { PORT: String(port) } })).resolves.toBeDefined();

    const url = `http://127.0.0.1:${port}/slack/events`;
    const body = commandBody(slashCommand({ text: "fs list", responseUrl: fake.responseUrl("container") }));
    expect((await signedPost(url, body)).status).toBe(401);
    expect((await signedPost(url, body, { secret: SECRET })).status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "container");
    expect(JSON.stringify(answer.body["blocks"])).toContain("on array lab-1");

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(join(appDir, "data", DEFAULT_DB_FILE))).toBe(true);
    expect(readdirSync(join(appDir, "config")).sort()).toEqual(["bot.yml", "ca.pem"]);
    expect(stdout.join("\n")).not.toContain("xoxb-container");
  }, 120_000);
});
