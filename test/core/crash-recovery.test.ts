/**
 * A crash never leaves a request "being carried out": a real child process on a SQLite file is killed between
 * the claim and the PATCH, and between the PATCH and the final update; the next start-up ends the request as
 * "interrupted" and its card says so with what the array shows now.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { type AuditRecord, memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { compileFixture } from "../helpers/compile-fixture.js";
import { requestCount } from "../helpers/wire.js";
import { textOf } from "./harness.js";

const TIB = 2 ** 40;
let buildDir = "";
let work = "";

/** Compiles the child to JS: it runs as a plain node process, not under vitest. */
beforeAll(() => {
  buildDir = compileFixture("test/core/fixtures/crash-approver.ts", "crash-approver");
  work = mkdtempSync(join(tmpdir(), "crash-approver-"));
}, 180_000);

afterAll(() => {
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

let sim: Simulator | undefined;
afterEach(async () => sim?.close());

/** Runs the child until it prints `point`, kills it there, and returns every line it printed. */
function runUntil(child: ChildProcess, point: string): Promise<string[]> {
  return new Promise((res, rej) => {
    const lines: string[] = [];
    let buf = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buf += chunk.toString();
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      for (const l of parts) {
        lines.push(l);
        if (l === point) child.kill("SIGKILL");
      }
    });
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("exit", (_code, signal) => {
      if (signal === "SIGKILL") res(lines);
      else rej(new Error(`child exited without being killed: ${lines.join("\n")}\n${stderr}`));
    });
  });
}

/** The bot starting again on the same data file: recovery, with its own audit sink. */
async function restart(dataDir: string, s: Simulator) {
  const store = openSqliteStore({ dataDir });
  const pending = createDurablePendingStore(store);
  const pool = createArrayPool([simulatedArrayConfig("lab-1", s)], { logger: silentLogger() });
  const audit = memoryAuditSink();
  const pipeline = createPipeline({
    registry: createRegistry(RESOURCES),
    pool,
    config: configSchema.parse({ arrays: [{ name: "lab-1", address: s.url, api_token_env: "T" }] }),
    identity: { groupsOf: async () => [], isRestricted: async () => false },
    store: pending,
    audit,
    logger: silentLogger(),
    now: Date.now,
  });
  const effects = await pipeline.recoverInterrupted();
  const again = await pipeline.recoverInterrupted();
  const open = await pending.listOpen();
  const all = await store.list<{ status: string }>("pending");
  await pool.close();
  await store.close();
  return { effects, again, open, statuses: all.map((e) => e.value.status), audits: audit.records };
}

async function crashAt(point: "claimed" | "patched") {
  sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  const dataDir = join(work, point);
  const caFile = join(work, `${point}-ca.pem`);
  writeFileSync(caFile, sim.ca);
  const child = spawn(
    process.execPath,
    [join(buildDir, "test/core/fixtures/crash-approver.js"), dataDir, sim.url, caFile, point],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines = await runUntil(child, point);
  const patches = requestCount(sim.control.stats(), "PATCH /api/1.12/file-systems");
  return { lines, patches, provisioned: sim.state.fileSystems.get("builds")?.provisioned, sim };
}

const decisions = (audits: readonly AuditRecord[]) => audits.map((a) => [a.decision, a.outcome, a.errorCode]);

describe("start-up after a crash in the middle of a change", () => {
  test("killed between the claim and the PATCH: interrupted, and the card says the array shows no change", async () => {
    const { lines, patches, provisioned, sim: s } = await crashAt("claimed");
    expect(lines.filter((l) => l.startsWith("audit"))).toEqual(["audit pending"]);
    expect(patches).toBe(0);
    expect(provisioned).toBe(10 * TIB);

    const after = await restart(join(work, "claimed"), s);
    expect(after.statuses).toEqual(["interrupted"]);
    expect(after.open).toEqual([]);
    expect(after.effects.map((e) => e.kind === "update" && e.ref)).toEqual([{ channelId: "C1", ts: "1.1" }]);
    const card = textOf(after.effects);
    // Read back from the array, not guessed: the planned PATCH is compared with what lab-1 shows now.
    expect(card).toContain(
      "Interrupted before the change reached lab-1: it shows none of the planned changes",
    );
    expect(card).toContain(
      `Now on lab-1: PATCH /file-systems builds: not done, provisioned is ${10 * TIB}, planned ${9 * TIB}`,
    );
    expect(card).not.toContain("most likely");
    expect(card).not.toContain("Approve");
    expect(decisions(after.audits)).toEqual([["interrupted", "error", "INTERRUPTED"]]);
    expect(after.again).toEqual([]);
  }, 60_000);

  test("killed between the PATCH and the final update: 'executing' was audited first, the card shows the new size", async () => {
    const { lines, patches, provisioned, sim: s } = await crashAt("patched");
    // The audit trail shows the change began before the array was called.
    expect(lines.filter((l) => l.startsWith("audit"))).toEqual(["audit pending", "audit executing"]);
    expect(patches).toBe(1);
    expect(provisioned).toBe(9 * TIB);

    const after = await restart(join(work, "patched"), s);
    expect(after.statuses).toEqual(["interrupted"]);
    const card = textOf(after.effects);
    expect(card).toContain(
      "Interrupted, but lab-1 shows the change done: every planned request reads back as planned.",
    );
    expect(card).toContain("Now on lab-1: PATCH /file-systems builds: done, it shows the planned values");
    expect(decisions(after.audits)).toEqual([["interrupted", "error", "INTERRUPTED"]]);
    expect(after.audits[0]).toMatchObject({ command: "fs.resize", approvedBy: ["alice"], userId: "bob" });
  }, 60_000);
});
