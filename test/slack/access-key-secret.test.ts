/**
 * A new access key's secret, end to end through Slack: Bolt fed signed requests, the real pipeline with a
 * SQLite pending store on disk, a simulated array over HTTPS, the fake Slack Web API. The secret must appear
 * exactly once — in the requester's private answer — and nowhere else the bot writes: Slack calls, response
 * URLs, uploads, log lines, audit records, the store's files, /metrics.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { memoryAuditSink } from "../../src/core/audit.js";
import { createPipeline } from "../../src/core/pipeline.js";
import { createRegistry } from "../../src/core/registry.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { commandLabeler } from "../../src/ops/command-label.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { openStore } from "../../src/store/index.js";
import { createStorePendingStore } from "../../src/store/pending-store.js";
import type { Store } from "../../src/store/types.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

const USER = "analytics/etl";

describe("access-key create: the secret is shown once, to the requester alone", () => {
  let sim: Simulator;
  let pool: ArrayPool;
  let h: Harness;
  let store: Store;
  let dataDir: string;
  const audit = memoryAuditSink();
  const log = memoryLogger("trace");
  let seq = 0;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    dataDir = mkdtempSync(join(tmpdir(), "secret-scan-"));
    store = openStore({ kind: "sqlite", dataDir });
    const config = configSchema.parse({
      arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }],
      access: {
        default_role: "none",
        operator: { users: ["UBOB"], groups: [] },
        viewer: { users: ["UCAROL"], groups: [] },
      },
      channels: { default_array: "lab-1" },
    });
    pool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
      logger: log.logger,
      sleep: async () => {},
    });
    const registry = createRegistry(RESOURCES);
    h = await startHarness("http", {
      pipeline: ({ identity }) =>
        createPipeline({
          registry,
          pool,
          config,
          identity,
          store: createStorePendingStore(store),
          audit,
          logger: log.logger,
          now: Date.now,
        }),
      commandLabel: commandLabeler(registry),
      logger: log.logger,
    });
  });

  afterAll(async () => {
    await h?.stop();
    await pool?.close();
    await sim?.close();
    await store?.close?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const keysOf = (user: string) => [...sim.state.accessKeys.values()].filter((k) => k.user === user);
  const run = async (text: string, userId = "UBOB") => {
    const url = h.fake.responseUrl(`ak-${++seq}`);
    await h.driver.command(slashCommand({ text, userId, responseUrl: url }));
    return h.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
  };
  const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

  /** Everything the bot wrote anywhere except response URLs, as one string per place. */
  async function everywhere(): Promise<Record<string, string>> {
    const storeFiles = readdirSync(dataDir)
      .map((f) => readFileSync(join(dataDir, f)).toString("latin1"))
      .join("\n");
    return {
      "Slack Web API calls": JSON.stringify(h.fake.calls),
      "unexpected Slack calls": JSON.stringify(h.fake.unexpected),
      "posted messages": JSON.stringify([...h.fake.messages.values()]),
      uploads: [...h.fake.uploads.values()].map((b) => b.toString("latin1")).join("\n"),
      "log lines": log.text(),
      "audit records": JSON.stringify(audit.records),
      "pending store files": storeFiles,
      "/metrics": await (await fetch(`${h.baseUrl}/metrics`)).text(),
    };
  }

  it("answers privately with the secret, says it will not be shown again, and writes it nowhere else", async () => {
    const before = new Set(keysOf(USER).map((k) => k.name));
    const answer = await run(`access-key create ${USER}`);
    const created = keysOf(USER).find((k) => !before.has(k.name));
    if (!created) throw new Error("no key was created");
    const secret = created.secret;
    expect(secret.length).toBeGreaterThanOrEqual(20);

    expect(answer.body["response_type"]).toBe("ephemeral");
    const shown = JSON.stringify(answer.body);
    expect(occurrences(shown, secret)).toBe(1);
    expect(shown).toContain(created.name);
    expect(shown).toContain("it will not be shown again");

    // Other replies the same request got, and every other response URL post: no secret.
    const responses = h.fake.responses.map((r) => JSON.stringify(r.body));
    expect(responses.reduce((n, r) => n + occurrences(r, secret), 0)).toBe(1);
    for (const [place, text] of Object.entries(await everywhere())) {
      expect({ place, found: text.includes(secret) }).toEqual({ place, found: false });
    }
    // The scan is real: the audit record and the logs did see this request.
    expect(audit.records.at(-1)).toMatchObject({ command: "access-key.create", outcome: "ok" });
    expect(log.text()).toContain("access-key");
  });

  it("listings name keys, never secrets", async () => {
    const listed = JSON.stringify((await run(`access-key list ${USER}`, "UCAROL")).body);
    for (const k of keysOf(USER)) {
      expect(listed).toContain(k.name);
      expect(listed).not.toContain(k.secret);
    }
  });

  it("when the response URL fails, the secret goes as an ephemeral message to the requester, never to the channel", async () => {
    // Room for another key (a user holds two at most).
    for (const k of keysOf(USER)) sim.state.accessKeys.delete(k.name);
    h.fake.responseUrlStatus = 404;
    try {
      const before = new Set(keysOf(USER).map((k) => k.name));
      const url = h.fake.responseUrl(`ak-${++seq}`);
      const posts = h.fake.callsOf("chat.postEphemeral").length;
      await h.driver.command(
        slashCommand({ text: `access-key create ${USER}`, userId: "UBOB", responseUrl: url }),
      );
      const eph = await h.fake.waitForCall("chat.postEphemeral", () => true, posts + 1);
      const created = keysOf(USER).find((k) => !before.has(k.name));
      if (!created) throw new Error("no key was created");
      expect(eph.args).toMatchObject({ channel: "C1", user: "UBOB" });
      expect(JSON.stringify(eph.args)).toContain(created.secret);
      expect(JSON.stringify(h.fake.callsOf("chat.postMessage"))).not.toContain(created.secret);
      expect(log.text()).not.toContain(created.secret);
    } finally {
      h.fake.responseUrlStatus = 200;
    }
  });
});
