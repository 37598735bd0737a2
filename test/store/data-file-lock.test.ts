/**
 * One process per data file, held by a lock the kernel drops with the process: while one bot holds the SQLite
 * file, a second process on it is refused with a clear message and starts nothing; once the first stops, or
 * dies by SIGKILL, the next one starts at once, and a request left waiting for approval is approved and carried
 * out exactly once.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { compose } from "../../src/compose.js";
import { loadConfig } from "../../src/config/load.js";
import { type AuditRecord, memoryAuditSink } from "../../src/core/audit/audit.js";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { compileFixture } from "../helpers/compile-fixture.js";
import { requestCount } from "../helpers/wire.js";
import { labConfig, labFaces } from "./fixtures/lab-bot.js";

const TIB = 2 ** 40;
let buildDir = "";
let pendingBuild = "";
let work = "";

beforeAll(() => {
  buildDir = compileFixture("test/store/fixtures/second-bot.ts", "second-bot");
  pendingBuild = compileFixture("test/store/fixtures/pending-bot.ts", "pending-bot");
  work = mkdtempSync(join(tmpdir(), "data-file-"));
  writeFileSync(
    join(work, "bot.yml"),
    [
      "arrays:",
      "  - name: fb1",
      "    address: https://fb1.example.net",
      "    api_token_env: FB1_TOKEN",
      "store:",
      "  kind: sqlite",
      "  data_dir: state",
    ].join("\n"),
  );
}, 180_000);

afterAll(() => {
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(pendingBuild, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

let sim: Simulator | undefined;
afterEach(async () => sim?.close());

const secondBot = () =>
  spawnSync(process.execPath, [join(buildDir, "test/store/fixtures/second-bot.js"), join(work, "bot.yml")], {
    encoding: "utf8",
    timeout: 60_000,
  });

/** Resolves with the request id once the child printed "pending <id>", then kills it with SIGKILL. */
function killWhenPending(child: ChildProcess): Promise<string> {
  return new Promise((res, rej) => {
    let out = "";
    let err = "";
    let id = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^pending (\S+)$/m.exec(out);
      if (m?.[1] && !id) {
        id = m[1];
        child.kill("SIGKILL");
      }
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.on("exit", (_code, signal) => {
      if (signal === "SIGKILL" && id) res(id);
      else rej(new Error(`the bot exited without being killed: ${out}\n${err}`));
    });
  });
}

describe("one process per data file", () => {
  test("a second process on the same SQLite file is refused with a clear message, and starts once the first stops", async () => {
    const loaded = loadConfig({
      argv: ["--config", join(work, "bot.yml")],
      env: { FB1_TOKEN: "T-x" },
      readFile: (p) => readFileSync(p, "utf8"),
    });
    if (!loaded) throw new Error("no config");
    const first = await compose(loaded, labFaces());

    const refused = secondBot();
    expect(refused.status).toBe(2);
    expect(refused.stdout).toContain(`is using the data file in ${join(work, "state")}`);
    expect(refused.stdout).toContain(`pid ${process.pid}`);
    expect(refused.stdout).toContain("Stop the other process, or give this one its own store.data_dir.");
    expect(refused.stdout).not.toContain("started");
    // A second connection in the same process is refused as well.
    expect(() => openSqliteStore({ dataDir: join(work, "state") })).toThrow(
      expect.objectContaining({ code: "DATA_FILE_IN_USE" }),
    );

    await first.close();
    const after = secondBot();
    expect(after.stdout.trim()).toBe("started");
    expect(after.status).toBe(0);
  }, 120_000);

  test("after SIGKILL with a request waiting for approval, the bot starts again at once and carries it out once", async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    const dataDir = join(work, "killed");
    const caFile = join(work, "killed-ca.pem");
    writeFileSync(caFile, sim.ca);
    const child = spawn(
      process.execPath,
      [join(pendingBuild, "test/store/fixtures/pending-bot.js"), dataDir, sim.url, caFile],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const id = await killWhenPending(child);
    expect(sim.state.fileSystems.get("builds")?.provisioned).toBe(10 * TIB);

    // At once: no wait for anything the dead process held.
    const audit = memoryAuditSink();
    const bot = await compose(labConfig(dataDir, sim), labFaces(audit));
    try {
      expect((await bot.pending.listOpen()).map((r) => r.id)).toEqual([id]);
      await bot.pipeline.recoverInterrupted();
      const approve = {
        actionId: "array.pending.approve",
        value: id,
        actor: { kind: "console" as const, userId: "alice", channelId: "C1" },
      };
      await bot.pipeline.handleClick(approve);
      await bot.pipeline.handleClick(approve);
      expect(requestCount(sim.control.stats(), "PATCH /api/1.12/file-systems")).toBe(1);
      expect(sim.state.fileSystems.get("builds")?.provisioned).toBe(9 * TIB);
      const executed = audit.records.filter(
        (r: AuditRecord) => r.decision === "approved" && r.outcome === "ok",
      );
      expect(executed).toHaveLength(1);
      expect(executed[0]).toMatchObject({ command: "fs.resize", pendingId: id });
      expect(executed[0]?.approvedBy).toContain("alice");
      expect(await bot.pending.listOpen()).toEqual([]);
    } finally {
      await bot.close();
    }
  }, 120_000);
});
