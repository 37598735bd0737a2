import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { DEFAULT_DB_FILE } from "../../src/store/types.js";
import { compileFixture } from "../helpers/compile-fixture.js";

let buildDir = "";
let dataDir = "";

/** Compiles the writer (and the store it imports) to JS: the child is a plain node process, not vitest. */
beforeAll(() => {
  buildDir = compileFixture("test/store/fixtures/crash-writer.ts", "crash-writer");
  dataDir = mkdtempSync(join(tmpdir(), "crash-data-"));
}, 60_000);

afterAll(() => {
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the last number the child reported once it has reported `atLeast` commits, then kills it. */
function runAndKill(child: ChildProcess, atLeast: number): Promise<number> {
  return new Promise((res, rej) => {
    let buf = "";
    let last = 0;
    let killed = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      buf += chunk.toString();
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) if (l) last = Number(l);
      if (!killed && last >= atLeast) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    // "close", not "exit": only once stdout has ended has every number the writer printed been read.
    child.on("close", (_code, signal) => {
      if (signal === "SIGKILL") res(last);
      else rej(new Error(`writer exited without being killed: ${stderr}`));
    });
  });
}

describe("SQLite store under SIGKILL", () => {
  it("leaves a readable file that holds every commit the writer reported", async () => {
    for (const round of [1, 2, 3]) {
      const child = spawn(
        process.execPath,
        [join(buildDir, "test/store/fixtures/crash-writer.js"), dataDir],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const reported = await runAndKill(child, 200 * round);

      const db = new DatabaseSync(join(dataDir, DEFAULT_DB_FILE));
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();

      const store = openSqliteStore({ dataDir });
      const n = (await store.get<number>("counter", "n")) ?? 0;
      // Nothing committed is lost; at most the batch in flight when the signal landed is extra.
      expect(n).toBeGreaterThanOrEqual(reported);
      expect(n).toBeLessThanOrEqual(reported + 1);
      // Every batch is whole: exactly the last three batches' rows exist, five each.
      const rows = await store.list<{ i: number; j: number }>("rows");
      const batches = new Map<number, number>();
      for (const r of rows) batches.set(r.value.i, (batches.get(r.value.i) ?? 0) + 1);
      expect([...batches.keys()].sort((a, b) => a - b)).toEqual([n - 2, n - 1, n]);
      expect([...batches.values()].every((c) => c === 5)).toBe(true);
      await store.close();
    }
  });
});
