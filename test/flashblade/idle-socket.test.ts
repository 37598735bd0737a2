/**
 * array_pool.idle_socket holds against a server's keep-alive hint: the simulator (as Node's http server does)
 * answers with `Keep-Alive: timeout=65`, which undici takes over its own time-out unless capped, so idle sockets
 * stayed open 63 s and a fleet's socket bound sat full of them. The test waits for the idle socket to close: with
 * the hint obeyed it would not within the test's time-out.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Transport } from "../../src/flashblade/transport.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("an idle socket", () => {
  it("closes after array_pool.idle_socket even when the array hints a longer keep-alive", async () => {
    sim = await startSimulator({ scenario: "empty" });
    let closed: (reason: string) => void = () => {};
    const disconnected = new Promise<string>((resolve) => {
      closed = resolve;
    });
    const transport = new Transport(simulatedArrayConfig("fb-idle", sim), {
      idleSocketMs: 200,
      onDisconnect: (r) => closed(r),
    });
    const res = await transport.request({ method: "GET", path: "/api/api_version" });
    expect(res.status).toBe(200);
    expect(res.headers["keep-alive"]).toMatch(/timeout=65/);
    expect(sim.control.stats().connections).toBe(1);
    await disconnected;
    await transport.close();
  });
});
