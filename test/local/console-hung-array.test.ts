/**
 * An array that completes the TLS handshake and never answers (a hung management service), as the console
 * process meets it: `/array arrays` says it is not answering within the fan-out deadline, a fan-out answers
 * with the other array and a note, and a pipe of three commands to it finishes in seconds, not minutes.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:tls";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";

const root = new URL("../..", import.meta.url).pathname;
const outDir = join(root, "dist", "console-hung-test");
const entry = join(outDir, "src", "main.js");
const TOKEN = "T-hung-array-test";

let sim: Simulator;
let hung: Server;
const held: Socket[] = [];
let dir: string;

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  const tsc = join(root, "node_modules", ".bin", "tsc");
  await promisify(execFile)(tsc, ["-p", join(root, "tsconfig.build.json"), "--outDir", outDir], {
    cwd: root,
  }).catch(() => undefined);
  expect(existsSync(entry)).toBe(true);
  const tls = await selfSignedCertificate();
  sim = await startSimulator({ tls, apiTokens: [{ token: TOKEN, username: "pureuser" }], scenario: "demo" });
  // Accepts TLS, reads whatever comes, never writes a byte back.
  hung = createServer({ cert: tls.cert, key: tls.key }, (socket) => {
    held.push(socket);
    socket.on("error", () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
  const port = (hung.address() as { port: number }).port;
  dir = mkdtempSync(join(tmpdir(), "hung-array-"));
  writeFileSync(join(dir, "ca.pem"), tls.cert);
  const host = new URL(sim.url).hostname;
  writeFileSync(
    join(dir, "bot.yml"),
    [
      "arrays:",
      "  - name: lab-1",
      `    address: ${sim.url}`,
      "    api_token_env: ARRAY_TOKEN",
      "    ca_file: ca.pem",
      "  - name: stuck",
      `    address: https://${host}:${port}`,
      "    api_token_env: ARRAY_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  default_role: viewer",
      "channels:",
      "  default_array: lab-1",
      "fan_out_deadline: 8s",
      "store:",
      "  kind: memory",
      "",
    ].join("\n"),
  );
}, 180_000);

afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise<void>((resolve) => hung?.close(() => resolve()));
  await sim?.close();
});

describe("an array that accepts TLS and never answers", () => {
  test("arrays shows it not answering, a fan-out answers without it, and three commands finish quickly", async () => {
    const input = ["/array arrays", "/array fs list --array all", "/array fs list --array stuck", ""].join(
      "\n",
    );
    const child = spawn(process.execPath, [entry, "--config", join(dir, "bot.yml")], {
      cwd: root,
      env: { PATH: process.env["PATH"] ?? "", ARRAY_TOKEN: TOKEN },
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end(input);
    // The bound of the issue: a pipe of three commands to the hung array finishes within 30 s (the old client
    // spent 3 × 30 s on the version alone). Not a timing assertion on speed, a bound on waiting.
    const bound = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 30_000).unref());
    const code = await Promise.race([exited, bound]);
    if (code === "hung") child.kill("SIGKILL");
    expect(code, stdout).not.toBe("hung");
    // /array arrays: the hung one is not answering, the simulator is up.
    expect(stdout).toMatch(/stuck\s+–\s+not answering/);
    expect(stdout).toMatch(/lab-1\s+–\s+up/);
    // The fan-out answered with lab-1's file systems and a note for the hung array.
    const fanOut = stdout.slice(stdout.indexOf("/array fs list --array all"));
    expect(fanOut).toContain("lab-1");
    expect(fanOut).toMatch(/stuck[^\n]*(not answering|unreachable)/);
    // The command to the hung array alone fails fast with a clear message.
    const alone = stdout.slice(stdout.indexOf("/array fs list --array stuck"));
    expect(alone).toMatch(/array stuck is unreachable since/);
  }, 120_000);
});
