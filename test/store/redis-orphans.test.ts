/**
 * A Redis server started by a test or a bench must not outlive the process that started it, however that
 * process ends: a load-failover test that timed out never reached its close() and left a primary, a replica and
 * three sentinels running. The child is a plain node process running test/store/fixtures/redis-orphan.ts.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFixture } from "../helpers/compile-fixture.js";

let buildDir = "";
beforeAll(() => {
  buildDir = compileFixture("test/store/fixtures/redis-orphan.ts", "redis-orphan");
}, 60_000);
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: "127.0.0.1", port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

/** Whether the port stops accepting within `tries` connects, one after another (a killed server's socket closes as it dies). */
async function goneWithin(port: number, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) if (!(await accepts(port))) return true;
  return false;
}

async function startChild() {
  const child = spawn(process.execPath, [join(buildDir, "test/store/fixtures/redis-orphan.js")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = "";
    child.stdout.on("data", (b: Buffer) => {
      buf += b.toString();
      if (buf.includes("\n")) resolve(Number(buf.trim()));
    });
    child.once("exit", (code) => reject(new Error(`the fixture ended first (${code})`)));
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return { child, port, exited };
}

describe("Redis servers started by the bench helper", () => {
  it("die when their process calls exit without closing them", async () => {
    const { child, port, exited } = await startChild();
    expect(await accepts(port)).toBe(true);
    child.stdin.write("exit\n");
    await exited;
    expect(await goneWithin(port, 500)).toBe(true);
  }, 30_000);

  it("die when their process is sent SIGTERM (how a test runner ends a worker)", async () => {
    const { child, port, exited } = await startChild();
    expect(await accepts(port)).toBe(true);
    child.kill("SIGTERM");
    await exited;
    expect(await goneWithin(port, 500)).toBe(true);
  }, 30_000);
});
