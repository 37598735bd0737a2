import { afterEach, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { silentLogger } from "../../src/logger.js";
import { commandLabeler } from "../../src/ops/command-label.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { Readiness } from "../../src/ops/readiness.js";
import { type OpsServer, opsRoutes, startOpsServer } from "../../src/ops/server.js";

describe("ops endpoints", () => {
  let server: OpsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(readiness: Readiness) {
    const metrics = createMetrics({ collectDefault: true });
    server = await startOpsServer(opsRoutes({ metrics, readiness, logger: silentLogger() }), {
      port: 0,
      host: "127.0.0.1",
    });
    return { metrics, base: `http://127.0.0.1:${server.port}` };
  }

  it("/healthz is alive even while not ready; /readyz says why not", async () => {
    const r = new Readiness("socket");
    const { base } = await start(r);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      ready: false,
      slack: { connected: false },
      config: { loaded: false },
    });
    r.slackConnected = true;
    r.configLoaded = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    r.shuttingDown = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it("/healthz stays 200 with an array not answering, and names it; /readyz stays ready", async () => {
    const r = new Readiness("http", async () => [
      { name: "a", reachable: true, detail: "REST 1.12" },
      { name: "stuck", reachable: false, detail: "no answer within 5000 ms" },
    ]);
    r.slackConnected = true;
    r.configLoaded = true;
    const { base } = await start(r);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      arrays: {
        total: 2,
        reachable: 1,
        unreachable: [{ name: "stuck", detail: "no answer within 5000 ms" }],
      },
    });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it("/readyz summarises arrays; a failing or hanging health check does not make it hang", async () => {
    const arrays = new Readiness("http", async () => [
      { name: "a", reachable: true },
      { name: "b", reachable: false, detail: "ECONNREFUSED" },
    ]);
    arrays.slackConnected = true;
    arrays.configLoaded = true;
    expect((await arrays.report()).arrays).toEqual({
      total: 2,
      reachable: 1,
      unreachable: [{ name: "b", detail: "ECONNREFUSED" }],
    });
    // One unreachable array does not make the bot unready.
    expect((await arrays.report()).ready).toBe(true);

    const broken = new Readiness("http", () => Promise.reject(new Error("pool closed")));
    expect((await broken.report()).arrays).toEqual({ error: "pool closed" });
    const hanging = new Readiness("http", () => new Promise(() => {}), 20);
    expect((await hanging.report()).arrays).toEqual({ error: "array health check timed out" });
  });

  it("/metrics exposes the bot's metrics in Prometheus text", async () => {
    const { base, metrics } = await start(new Readiness("http"));
    metrics.commands.inc({ command: "fs", outcome: "ok" });
    metrics.arrayCallSeconds.observe({ array: "fb1", outcome: "ok" }, 0.2);
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain('array_chatops_commands_total{command="fs",outcome="ok"} 1');
    // The pending-approvals gauge is tested through its real wiring in pending-gauge.test.ts.
    expect(text).toContain('array_chatops_array_call_duration_seconds_count{array="fb1",outcome="ok"} 1');
    expect(text).toContain("array_chatops_process_cpu_user_seconds_total");
  });

  it("labels commands by id, never with what people typed", () => {
    const label = commandLabeler(createRegistry(RESOURCES));
    expect(label("fs list --array all")).toBe("fs.list");
    expect(label("fs eradicate old-share")).toBe("fs.eradicate");
    expect(label("  ")).toBe("help");
    expect(label("help fs")).toBe("help");
    expect(label("fs frobnicate")).toBe("unknown");
    expect(label("<!channel> rm -rf")).toBe("unknown");
    expect(label("fs list --no-such-option")).toBe("unknown");
  });
});
