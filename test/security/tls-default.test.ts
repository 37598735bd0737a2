/**
 * TLS verification is on by default, from the configuration file to the wire: an array entry with neither
 * `ca_file` nor `insecure` is verified against the system store, so a self-signed array is refused before
 * any request (or the API token) is sent, with an error that says how to trust it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { BotError } from "../../src/errors.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";

describe("TLS verification by default", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1" });
  });
  afterAll(() => sim?.close());

  it("an array configured without ca_file or insecure is verified, and a self-signed one refused", async () => {
    const loaded = parseConfigText(
      ["arrays:", `  - { name: lab-1, address: "${sim.url}", api_token_env: T }`].join("\n"),
      { source: "bot.yml", env: { T: "T-tls-token" }, readFile: () => "" },
    );
    const cfg = loaded.arrays[0];
    expect(cfg?.insecure).toBe(false);
    expect(cfg?.ca).toBeUndefined();
    const pool = createArrayPool(loaded.arrays, { logger: silentLogger(), sleep: async () => {} });
    try {
      const err = await pool
        .get("lab-1")
        .get("/file-systems")
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BotError);
      expect((err as BotError).code).toBe("ARRAY_UNREACHABLE");
      expect((err as BotError).message).toMatch(/TLS certificate not trusted.*ca_file/);
      expect(sim.control.stats().total).toBe(0);
      expect(sim.control.stats().logins).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
