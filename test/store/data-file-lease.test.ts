/**
 * One process per data file: while one bot holds the SQLite file, a second process composing the bot on the
 * same file is refused with a clear message and starts nothing; once the first stops, the second starts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compose } from "../../src/compose.js";
import { loadConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/logger.js";
import { DATA_FILE_LEASE, holdDataFile } from "../../src/store/data-file.js";
import { currentLease } from "../../src/store/lease.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { compileFixture } from "../helpers/compile-fixture.js";

let buildDir = "";
let work = "";

beforeAll(() => {
  buildDir = compileFixture("test/store/fixtures/second-bot.ts", "second-bot");
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
  rmSync(work, { recursive: true, force: true });
});

const secondBot = () =>
  spawnSync(process.execPath, [join(buildDir, "test/store/fixtures/second-bot.js"), join(work, "bot.yml")], {
    encoding: "utf8",
    timeout: 60_000,
  });

describe("one process per data file", () => {
  test("a second process on the same SQLite file is refused with a clear message, and starts once the first stops", async () => {
    const loaded = loadConfig({
      argv: ["--config", join(work, "bot.yml")],
      env: { FB1_TOKEN: "T-x" },
      readFile: (p) => readFileSync(p, "utf8"),
    });
    if (!loaded) throw new Error("no config");
    const first = await compose(loaded, {
      logger: silentLogger(),
      identity: { groupsOf: async () => [], isRestricted: async () => false },
      audit: { write: () => {} },
    });

    const refused = secondBot();
    expect(refused.status).toBe(2);
    expect(refused.stdout).toContain(`is using the data file in ${join(work, "state")}`);
    expect(refused.stdout).toContain(`pid ${process.pid}`);
    expect(refused.stdout).toContain("Stop the other process, or give this one its own store.data_dir.");
    expect(refused.stdout).not.toContain("started");

    await first.close();
    const after = secondBot();
    expect(after.stdout.trim()).toBe("started");
    expect(after.status).toBe(0);
  }, 120_000);

  test("renewal keeps the fence; a holder whose lease was taken over hears that it lost it", async () => {
    let now = 1_000;
    const store = createMemoryStore({ now: () => now });
    const held = await holdDataFile(store, {
      logger: silentLogger(),
      now: () => now,
      path: "/data",
      owner: "a",
      ttlMs: 100,
      renewMs: 5,
    });
    expect(held.lease.fence).toBe(1);
    // Paused past its expiry: another process takes the file over.
    now += 1_000;
    const other = await holdDataFile(store, {
      logger: silentLogger(),
      now: () => now,
      path: "/data",
      owner: "b",
    });
    expect(other.lease.fence).toBe(2);
    const lost = await new Promise<boolean>((r) => held.onLost(() => r(true)));
    expect(lost).toBe(true);
    expect((await currentLease(store, DATA_FILE_LEASE, now))?.owner).toBe("b");
    await held.release();
    expect((await currentLease(store, DATA_FILE_LEASE, now))?.owner).toBe("b");
    await other.release();
    expect(await currentLease(store, DATA_FILE_LEASE, now)).toBeUndefined();
  });
});
