import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RecordingChat } from "../../src/alerts/replay/recording-chat.js";
import { openAlerting, storeOptions } from "../../src/alerts/start.js";
import { parseConfigText } from "../../src/config/load.js";
import type { Pipeline } from "../../src/core/context/pipeline-types.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { openStore } from "../../src/store/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function loadedIn(dir: string, alerts = "  enabled: false\n") {
  const text = [
    "arrays:",
    "  - name: fb1",
    "    address: https://fb1.example.net",
    "    api_token_env: FB1_TOKEN",
    "store:",
    "  kind: sqlite",
    "  data_dir: state",
    "alerts:",
    alerts,
    "  routes:",
    "    - name: all",
    "      channels: [CALERTS01]",
  ].join("\n");
  return parseConfigText(text, {
    source: join(dir, "bot.yml"),
    env: { FB1_TOKEN: "T-x" },
    readFile: () => "",
    baseDir: dir,
  });
}

const noPipeline: Pipeline = {
  handleCommand: async () => [],
  handleClick: async () => [],
  attachMessage: async () => {},
  sweepExpired: async () => [],
  recoverInterrupted: async () => [],
};

describe("alerting composition", () => {
  it("opens the SQLite store next to the config file, keeps approvals there, and serves commands once attached", async () => {
    const dir = mkdtempSync(join(tmpdir(), "alerting-"));
    dirs.push(dir);
    const loaded = loadedIn(dir);
    expect(storeOptions(loaded)).toEqual({
      kind: "sqlite",
      dataDir: join(dir, "state"),
      synchronous: "full",
    });

    const store = openStore(storeOptions(loaded));
    const alerting = openAlerting(loaded, { logger: silentLogger(), store });
    expect(existsSync(join(dir, "state", "array-chatops.db"))).toBe(true);
    expect(() => alerting.commands.routesFor("CALERTS01")).toThrow(
      expect.objectContaining({ code: "ALERTS_NOT_RUNNING" }),
    );

    const pool = createArrayPool(loaded.arrays, { logger: silentLogger() });
    const identity = { groupsOf: async () => [], isRestricted: async () => false };
    const engine = alerting.attach({ chat: new RecordingChat(), pool, identity, pipeline: noPipeline });
    expect(alerting.attach({ chat: new RecordingChat(), pool, identity, pipeline: noPipeline })).toBe(engine);
    expect(engine.matches("alert.snooze")).toBe(true);
    expect(engine.matches("array.pending.confirm")).toBe(false);
    expect(alerting.commands.routesFor("CALERTS01").map((r) => r.name)).toEqual(["all"]);
    await alerting.stop();
    await store.close();
    await pool.close();
  });
});
