import { describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { recordingSleep } from "./helpers.js";
import { logSink, poolOf, simConfig, startSim } from "./sim.js";

describe("TLS", () => {
  it("verifies certificates by default: a self-signed array is refused without its CA", async () => {
    const sim = await startSim();
    const { sleep, delays } = recordingSleep();
    const cfg = simConfig(sim, { name: "fb-selfsigned" });
    delete cfg.ca;
    const c = poolOf([cfg], { sleep }).list()[0]!;
    const err = await c.get("/file-systems").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).code).toBe("ARRAY_UNREACHABLE");
    expect((err as BotError).message).toContain("TLS certificate not trusted");
    expect((err as BotError).message).toContain("ca_file");
    // Said in words; OpenSSL's code (DEPTH_ZERO_SELF_SIGNED_CERT) is for the log only.
    expect((err as BotError).message).toContain("it is self-signed");
    expect((err as BotError).message).not.toMatch(/[A-Z]+_[A-Z_]+/);
    expect(delays).toEqual([]); // retrying cannot fix a certificate
    expect(sim.control.stats().total).toBe(0); // nothing was sent
  });

  it("trusts the array's CA when given", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    expect((await c.get("/file-systems")).items).toEqual([]);
  });

  it("connects to a self-signed array marked insecure, warning once", async () => {
    const sim = await startSim();
    const cfg = simConfig(sim, { name: "fb-insecure", insecure: true });
    delete cfg.ca;
    const c = poolOf([cfg]).list()[0]!;
    await c.get("/file-systems");
    await c.get("/file-systems");
    const warnings = logSink.lines.filter(
      (l) => l.includes("verification is disabled") && l.includes('"array":"fb-insecure"'),
    );
    expect(warnings).toHaveLength(1);
  });
});
