import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { webApi } from "@slack/bolt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { boltLogger } from "../../src/slack/bolt-logger.js";
import { PacedSlackClient, slackErrorCode } from "../../src/slack/paced-client.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

/** A sleep the test releases by hand, so waits are ordered by events, never by the wall clock. */
function manualSleep() {
  const waits: { ms: number; release: () => void }[] = [];
  let notify: (() => void) | undefined;
  return {
    waits,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        waits.push({ ms, release: resolve });
        notify?.();
      }),
    next(): Promise<{ ms: number; release: () => void }> {
      const ready = waits.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => {
        notify = () => {
          notify = undefined;
          const w = waits.shift();
          if (w) resolve(w);
        };
      });
    },
  };
}

describe("PacedSlackClient", () => {
  let fake: FakeSlackApi;
  const clients: PacedSlackClient[] = [];

  beforeAll(async () => {
    fake = await FakeSlackApi.start();
  });
  afterAll(() => fake.close());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
  });

  function client(sleep: (ms: number) => Promise<void>, maxRetries = 3) {
    const web = fake.webClient("xoxb-paced");
    const metrics = createMetrics({ collectDefault: false });
    const c = new PacedSlackClient(
      web,
      { channelIntervalMs: 0, maxRetries, retryBaseMs: 10, sleep },
      silentLogger(),
      metrics,
    );
    clients.push(c);
    return { c, metrics };
  }

  it("honours Retry-After on one channel without holding up other channels or methods", async () => {
    const s = manualSleep();
    const { c, metrics } = client(s.sleep);
    fake.script("chat.postMessage", { status: 429, retryAfter: 7 });
    let firstDone = false;
    const first = c.call("chat.postMessage", { channel: "CSLOW", text: "one" }).then((r) => {
      firstDone = true;
      return r;
    });
    const wait = await s.next();
    expect(wait.ms).toBe(7000);
    const queued = c.call("chat.postMessage", { channel: "CSLOW", text: "two" });

    // Another channel and another method go through while CSLOW is paused.
    await c.call("chat.postMessage", { channel: "CFAST", text: "other" });
    await c.call("users.info", { user: "U1" });
    expect(firstDone).toBe(false);
    expect(fake.callsOf("chat.postMessage").filter((x) => x.args["channel"] === "CSLOW")).toHaveLength(1);

    wait.release();
    await Promise.all([first, queued]);
    const slow = fake.callsOf("chat.postMessage").filter((x) => x.args["channel"] === "CSLOW");
    expect(slow.map((x) => x.args["text"]).sort()).toEqual(["one", "one", "two"]);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'array_chatops_slack_api_calls_total{method="chat.postMessage",outcome="rate_limited"} 1',
    );
  });

  it("retries transient failures a bounded number of times", async () => {
    const { c } = client(() => Promise.resolve(), 2);
    fake.script("chat.update", { status: 503 }, { error: "internal_error" });
    await c.call("chat.update", { channel: "C1", ts: "1.1", text: "x" }).catch(() => undefined);
    expect(fake.callsOf("chat.update")).toHaveLength(3);

    fake.script("views.publish", { status: 500 }, { status: 502 }, { status: 503 });
    const err = await c
      .call("views.publish", { user_id: "U1", view: { type: "home", blocks: [] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(webApi.WebAPIHTTPError);
    expect(fake.callsOf("views.publish")).toHaveLength(3);
  });

  it("does not retry a definite answer such as channel_not_found", async () => {
    const { c } = client(() => Promise.reject(new Error("must not wait")));
    fake.script("chat.postEphemeral", { error: "channel_not_found" });
    const err = await c
      .call("chat.postEphemeral", { channel: "CX", user: "U1", text: "x" })
      .catch((e: unknown) => e);
    expect(slackErrorCode(err)).toBe("channel_not_found");
    expect(fake.callsOf("chat.postEphemeral")).toHaveLength(1);
  });

  it("keeps posts to one channel in the order they were made", async () => {
    const { c } = client(() => Promise.resolve());
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => c.call("chat.postMessage", { channel: "CORDER", text: `m${i}` })),
    );
    const texts = fake
      .callsOf("chat.postMessage")
      .filter((x) => x.args["channel"] === "CORDER")
      .map((x) => x.args["text"]);
    expect(texts).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
  });

  it("never repeats a post whose connection broke after it was sent (Slack may have accepted it)", async () => {
    const waits: number[] = [];
    const { c, metrics } = client(async (ms) => void waits.push(ms));
    fake.script("chat.postMessage", { drop: true });
    const err = await c.call("chat.postMessage", { channel: "CDROP", text: "card" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(webApi.WebAPIRequestError);
    expect(fake.callsOf("chat.postMessage").filter((x) => x.args["channel"] === "CDROP")).toHaveLength(1);
    fake.script("chat.postMessage", { status: 503 });
    await c.call("chat.postMessage", { channel: "CDROP", text: "again" }).catch(() => undefined);
    expect(fake.callsOf("chat.postMessage").filter((x) => x.args["channel"] === "CDROP")).toHaveLength(2);
    expect(await metrics.registry.metrics()).toContain(
      'array_chatops_slack_api_calls_total{method="chat.postMessage",outcome="transient"} 2',
    );
    // The same ambiguous failure on an update is repeated: updating a message twice is harmless.
    fake.script("chat.update", { drop: true });
    await c.call("chat.update", { channel: "CDROP", ts: "1.1", text: "x" }).catch(() => undefined);
    expect(fake.callsOf("chat.update").filter((x) => x.args["channel"] === "CDROP")).toHaveLength(2);
    expect(waits).toEqual([10]);
  });

  it("repeats a post that never left (connection refused) and one answered 429", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const waits: number[] = [];
    const web = new webApi.WebClient("xoxb-refused", {
      slackApiUrl: `http://127.0.0.1:${port}/api/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      logger: boltLogger(silentLogger()),
    });
    const refused = new PacedSlackClient(
      web,
      { channelIntervalMs: 0, maxRetries: 2, retryBaseMs: 10, sleep: async (ms) => void waits.push(ms) },
      silentLogger(),
    );
    clients.push(refused);
    const err = await refused.call("chat.postMessage", { channel: "C1", text: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(webApi.WebAPIRequestError);
    expect(waits).toEqual([10, 20]);

    const { c } = client(async () => {}, 2);
    fake.script("chat.postMessage", { status: 429, retryAfter: 1 });
    await c.call("chat.postMessage", { channel: "C429", text: "once" });
    expect(fake.callsOf("chat.postMessage").filter((x) => x.args["channel"] === "C429")).toHaveLength(2);
  });
});
