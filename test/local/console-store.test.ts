/**
 * The console honours the configuration's `store:`: an approval requested before a restart is shown again
 * after it, with its buttons, and can be given then.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/main.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../src/simulator/index.js";

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  dir = mkdtempSync(join(tmpdir(), "fc-console-store-"));
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
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runConsole(lines: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const code = await main({
    argv: ["--config", join(dir, "bot.yml")],
    env: { LAB_TOKEN: DEFAULT_API_TOKEN },
    stdin: Readable.from([`${lines.join("\n")}\n`]),
    stdout,
    stderr: new PassThrough(),
    interactive: false,
  });
  return { code, out };
}

describe("console with a durable store", () => {
  test("a pending approval survives a restart and is approved after it", async () => {
    const first = await runConsole(["/as bob", "/array fs resize scratch 4T"]);
    expect(first.out).toContain("Approval needed: resize file system scratch on lab-1");
    // Piped input that leaves a change waiting did nothing yet: the exit code says so (the request still waits).
    expect(first.out).toContain(
      "Nothing was done for this change, which waits for a confirmation or approval",
    );
    expect(first.code).toBe(1);

    const second = await runConsole(["/as alice", "1"]);
    expect(second.out).toContain("1 request(s) made before the restart still wait for an answer:");
    expect(second.out).toContain("[1] Approve   [2] Deny");
    expect(second.out).toContain("Resized scratch on lab-1: 5 TiB → 4 TiB.");
    expect(sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);

    const third = await runConsole(["/as alice"]);
    expect(third.out).not.toContain("still wait for an answer");
  });
});
