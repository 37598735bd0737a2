/**
 * Health that tells the truth: an array that answers but refuses the bot's token is not "up" — /healthz,
 * /readyz, /metrics and `/array arrays` say "login refused (check api_token_env)" from the first refused login —
 * and every array is asked at start-up, so none reads "not contacted yet" until a command or a poll comes.
 * Real simulators over HTTPS, the real ops server, the real console.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compose } from "../../src/compose.js";
import { configSchema } from "../../src/config/schema.js";
import { Secret } from "../../src/config/secret.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { arrayHealthFrom, Readiness } from "../../src/ops/readiness.js";
import { opsRoutes, startOpsServer } from "../../src/ops/server.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { SIM_VERSION } from "../helpers/wire.js";
import { runMain } from "../local/console-world.js";

let good: Simulator;
let strict: Simulator;
beforeAll(async () => {
  [good, strict] = await Promise.all([
    startSimulator({ arrayName: "lab-1", scenario: "demo" }),
    startSimulator({ arrayName: "lab-2", scenario: "demo" }),
  ]);
});
afterAll(async () => Promise.all([good.close(), strict.close()]));

const wrongToken = { apiToken: new Secret("not-the-token"), tokenSetting: "api_token_env" as const };

describe("an array that refuses the bot's token", () => {
  test("/healthz, /readyz and /metrics say login refused from the start-up check, the other array up", async () => {
    const pool = createArrayPool(
      [simulatedArrayConfig("lab-1", good), simulatedArrayConfig("lab-2", strict, wrongToken)],
      { logger: silentLogger() },
    );
    const readiness = new Readiness(
      "http",
      arrayHealthFrom(() => pool.health()),
    );
    readiness.slackConnected = true;
    readiness.configLoaded = true;
    const metrics = createMetrics({ collectDefault: false, arrays: () => pool.health() });
    const server = await startOpsServer(opsRoutes({ metrics, readiness, logger: silentLogger() }), {
      port: 0,
      host: "127.0.0.1",
    });
    try {
      await pool.checkAll();
      const base = `http://127.0.0.1:${server.port}`;
      const said = { name: "lab-2", detail: "login refused (check api_token_env)" };
      const healthz = await (await fetch(`${base}/healthz`)).json();
      expect(healthz).toEqual({ status: "ok", arrays: { total: 2, reachable: 1, unreachable: [said] } });
      const readyz = await fetch(`${base}/readyz`);
      expect(readyz.status).toBe(200);
      expect(((await readyz.json()) as { arrays: unknown }).arrays).toEqual({
        total: 2,
        reachable: 1,
        unreachable: [said],
      });
      const scraped = await (await fetch(`${base}/metrics`)).text();
      expect(scraped).toContain('array_chatops_array_up{array="lab-1"} 1');
      expect(scraped).toContain('array_chatops_array_up{array="lab-2"} 0');
      expect(pool.get("lab-2").health()).toMatchObject({ status: "refused", reachable: false });
    } finally {
      await server.close();
      await pool.close();
    }
  });

  test("/array arrays in the console says login refused and counts it out of the reachable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "health-truth-"));
    try {
      writeFileSync(join(dir, "ca.pem"), strict.ca);
      writeFileSync(
        join(dir, "bot.yml"),
        [
          "arrays:",
          "  - name: lab-2",
          `    address: ${strict.url}`,
          "    api_token_env: LAB_TOKEN",
          "    ca_file: ca.pem",
          "access:",
          "  admin: { users: [console] }",
          "store:",
          "  kind: memory",
          "",
        ].join("\n"),
      );
      const { out } = await runMain(["--config", join(dir, "bot.yml")], ["/array arrays"], {
        LAB_TOKEN: "not-the-token",
      });
      expect(out).toContain("== 0 of 1 array reachable ==");
      expect(out).toMatch(/^lab-2\s+–\s+login refused \(check api_token_env\)\s/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("arrays not contacted yet", () => {
  test("are asked at start-up: health is known before any command", async () => {
    const bot = await compose(
      {
        config: configSchema.parse({
          arrays: [{ name: "lab-1", address: good.url, api_token_env: "T" }],
        }),
        arrays: [simulatedArrayConfig("lab-1", good)],
        source: "test",
      },
      {
        logger: silentLogger(),
        identity: { groupsOf: async () => [], isRestricted: async () => false },
        audit: { write: () => {} },
        store: { kind: "memory" },
      },
    );
    try {
      await bot.arraysChecked;
      expect(bot.pool.health()[0]).toMatchObject({ status: "up", reachable: true, version: SIM_VERSION });
      expect(bot.pool.health()[0]?.sessionAgeMs).toBeDefined();
    } finally {
      await bot.close();
    }
  });
});
