import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/ops/metrics.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import {
  arrayYaml,
  loadRunSlackConfig,
  RUN_SECRET,
  startRunSlack,
  useRunSlackWorld,
} from "../slack/helpers/run-slack.js";

/** A loopback port nothing listens on (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The value of one sample line in Prometheus text, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("array-call metrics in Slack mode", () => {
  const world = useRunSlackWorld();

  it("/metrics shows the calls a command made, by array and outcome, and the failures by code", async () => {
    const { fake } = world();
    const deadPort = await closedPort();
    const loaded = loadRunSlackConfig(
      world(),
      ["access:", "  viewer: { users: [U1] }"],
      arrayYaml("dead-1", `https://127.0.0.1:${deadPort}`),
    );
    // The production composition (main.ts's buildCore) is the helper's default.
    const app = await startRunSlack(loaded);
    const metricsText = async () => (await fetch(`${app.baseUrl}/metrics`)).text();

    // The start-up check (the version and a login on each array) may have made calls already: count from here.
    const okCalls = 'array_chatops_array_call_duration_seconds_count{array="lab-1",outcome="ok"}';
    const before = sample(await metricsText(), okCalls) ?? 0;

    const res = await signedPost(
      `${app.baseUrl}/slack/events`,
      commandBody(slashCommand({ text: "fs list --array all", responseUrl: fake.responseUrl("m-1") })),
      { secret: RUN_SECRET },
    );
    expect(res.status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "m-1");
    expect(JSON.stringify(answer.body)).toContain("lab-1");

    const text = await metricsText();
    expect(sample(text, okCalls)).toBeGreaterThan(before);
    expect(
      sample(text, 'array_chatops_array_call_duration_seconds_bucket{le="+Inf",array="lab-1",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'array_chatops_array_call_duration_seconds_count{array="dead-1",outcome="error"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'array_chatops_array_call_errors_total{array="dead-1",code="ARRAY_UNREACHABLE"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('array_call_errors_total{array="lab-1"');
    // One gauge per array: the one that answers is up, the one nothing listens for is not.
    expect(sample(text, 'array_chatops_array_up{array="lab-1"}')).toBe(1);
    expect(sample(text, 'array_chatops_array_up{array="dead-1"}')).toBe(0);

    expect(await app.stop()).toBe(0);
  });
});

describe("the array-call recorder", () => {
  it("counts every event once, recorded as it happens, across repeated scrapes", async () => {
    const metrics = createMetrics({ collectDefault: false });
    const record = metrics.arrayCalls.record;
    for (let i = 0; i < 300; i++) {
      record({ array: "fb1", method: "GET", path: "/file-systems", outcome: "ok", status: 200, ms: 20 });
    }
    for (let i = 0; i < 7; i++) {
      record({ array: "fb1", method: "GET", path: "/arrays", outcome: "error", code: "ARRAY_BUSY", ms: 0.1 });
    }
    record({ array: "fb2", method: "POST", path: "/file-systems", outcome: "error", ms: 3000 });
    const first = await metrics.registry.metrics();
    const second = await metrics.registry.metrics();
    for (const text of [first, second]) {
      expect(sample(text, 'array_chatops_array_call_duration_seconds_count{array="fb1",outcome="ok"}')).toBe(
        300,
      );
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_bucket{le="0.025",array="fb1",outcome="ok"}'),
      ).toBe(300);
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_sum{array="fb1",outcome="ok"}'),
      ).toBeCloseTo(6);
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_count{array="fb1",outcome="error"}'),
      ).toBe(7);
      expect(sample(text, 'array_chatops_array_call_errors_total{array="fb1",code="ARRAY_BUSY"}')).toBe(7);
      expect(sample(text, 'array_chatops_array_call_errors_total{array="fb2",code="INTERNAL"}')).toBe(1);
      expect(
        sample(
          text,
          'array_chatops_array_call_duration_seconds_bucket{le="2.5",array="fb2",outcome="error"}',
        ),
      ).toBe(0);
    }
  });
});
