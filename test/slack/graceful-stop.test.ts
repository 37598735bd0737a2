import { describe, expect, it } from "vitest";
import { slashCommand } from "../fakes/payloads.js";
import { startHarness } from "./helpers/harness.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

/** The Slack app in HTTP mode over the test pipeline. */
async function start() {
  let pipeline!: TestPipeline;
  const h = await startHarness("http", {
    pipeline: ({ identity }) => {
      pipeline = new TestPipeline(identity);
      return pipeline;
    },
  });
  return { h, pipeline };
}

describe("graceful stop", () => {
  it("stops taking commands, finishes the one in flight, then disconnects", async () => {
    const { h, pipeline } = await start();
    try {
      await h.driver.command(slashCommand({ text: "slow", responseUrl: h.fake.responseUrl("inflight") }));
      await pipeline.slowStarted;

      let stopped = false;
      const stopping = h.app.stop().then(() => {
        stopped = true;
      });
      const late = await h.driver.command(
        slashCommand({ text: "list 1", responseUrl: h.fake.responseUrl("late") }),
      );
      expect(late.body).toMatchObject({ text: "The bot is restarting. Try again in a minute." });
      expect((await fetch(`${h.baseUrl}/readyz`)).status).toBe(503);
      expect(stopped).toBe(false);

      pipeline.releaseSlow();
      await stopping;
      expect(h.fake.responses.find((r) => r.id === "inflight")?.body["text"]).toBe("slow answer");
      expect(h.fake.responses.find((r) => r.id === "late")).toBeUndefined();
      await expect(fetch(`${h.baseUrl}/healthz`)).rejects.toThrow();
    } finally {
      await h.socket?.close();
      await h.fake.close();
    }
  });

  it("a command acknowledged just before the drain began is told the bot is restarting, through response_url", async () => {
    const { h, pipeline } = await start();
    try {
      // Hold the command inside Bolt after the receiver's guard has acknowledged it, and begin the drain there.
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      let reached = () => {};
      const inBolt = new Promise<void>((r) => {
        reached = r;
      });
      h.app.bolt.use(async ({ next }) => {
        reached();
        await held;
        await next();
      });
      const ack = await h.driver.command(
        slashCommand({ text: "list 1", responseUrl: h.fake.responseUrl("edge") }),
      );
      expect(ack.status).toBe(200);
      await inBolt;
      const stopping = h.app.stop();
      release();
      const told = await h.fake.waitForResponse((r) => r.id === "edge");
      expect(told.body).toMatchObject({
        response_type: "ephemeral",
        text: "The bot is restarting. Try again in a minute.",
      });
      await stopping;
      expect(pipeline.commands).toHaveLength(0);
    } finally {
      await h.fake.close();
    }
  });
});
