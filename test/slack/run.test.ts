import { describe, expect, it } from "vitest";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { loadRunSlackConfig, RUN_SECRET, startRunSlack, useRunSlackWorld } from "./helpers/run-slack.js";

describe("runSlack (the process's Slack branch)", () => {
  const world = useRunSlackWorld();

  it("serves commands, posts audit lines, and on SIGTERM stops and logs out of the arrays", async () => {
    const { sim, fake } = world();
    const loaded = loadRunSlackConfig(world(), [
      "access:",
      "  viewer: { users: [U1] }",
      "audit_channel: CAUDIT",
    ]);
    expect(loaded.slack?.mode).toBe("http");
    const hooks: string[] = [];
    const app = await startRunSlack(loaded, {
      onStarted: (ports) => {
        hooks.push(`started:${typeof ports.chat.post}`);
      },
      onStop: async () => {
        hooks.push("stopped");
      },
    });

    const res = await signedPost(
      `${app.baseUrl}/slack/events`,
      commandBody(slashCommand({ text: "fs list", responseUrl: fake.responseUrl("run-1") })),
      { secret: RUN_SECRET },
    );
    expect(res.status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "run-1");
    expect(JSON.stringify(answer.body["blocks"])).toContain("file systems on array lab-1");
    const audit = await fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "CAUDIT");
    expect(JSON.stringify(audit.args["blocks"])).toContain(
      "`fs.list` allowed for alice in <#C1> on lab-1: ok",
    );

    const logoutsBefore = sim.control.stats().requests["POST /api/logout"] ?? 0;
    expect(await app.stop()).toBe(0);
    expect(hooks).toEqual(["started:function", "stopped"]);
    expect(sim.control.stats().requests["POST /api/logout"] ?? 0).toBeGreaterThan(logoutsBefore);
    await expect(fetch(`${app.baseUrl}/healthz`)).rejects.toThrow();
  });
});
