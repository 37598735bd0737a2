/**
 * Secrets never logged: the production composition (runSlack with main.ts's buildCore, config parsed from
 * YAML with secrets from the environment) is driven through commands, changes, confirmations, an array that
 * refuses the bot's token, array errors, an expired session and Slack API failures; then every log line,
 * every Slack payload, every audit line and /metrics are scanned for every token and secret used.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { httpDriver } from "../fakes/drivers.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import {
  type RunningSlack,
  type RunSlackWorld,
  startRunSlack,
  startRunSlackWorld,
} from "../slack/helpers/run-slack.js";

const LAB_TOKEN = "T-secret-lab-token-6b1f0c";
const WRONG_TOKEN = "T-secret-wrong-token-93aa17";
const BOT_TOKEN = "xoxb-secret-bot-token-5e2d";
const SIGNING_SECRET = "secret-signing-secret-77c1";

describe("secrets never reach logs, Slack, audit lines or metrics", () => {
  let world: RunSlackWorld;
  let other: Simulator;
  let app: RunningSlack;

  beforeAll(async () => {
    world = await startRunSlackWorld();
    // The world's simulator accepts its default token; these accept only ours.
    await world.sim.close();
    world.sim = await startSimulator({
      arrayName: "lab-1",
      scenario: "demo",
      apiTokens: [{ token: LAB_TOKEN, username: "pureuser" }],
    });
    other = await startSimulator({
      arrayName: "lab-2",
      apiTokens: [{ token: LAB_TOKEN, username: "pureuser" }],
    });
    const yaml = [
      "arrays:",
      `  - { name: lab-1, address: "${world.sim.url}", api_token_env: LAB_TOKEN, ca_file: ca.pem }`,
      `  - { name: lab-2, address: "${other.url}", api_token_env: WRONG_TOKEN, ca_file: ca2.pem }`,
      "access:",
      "  operator: { users: [U1] }",
      "channels: { default_array: lab-1 }",
      "audit_channel: CAUDIT",
      "slack:",
      "  port: 0",
      "  channelIntervalMs: 0",
    ].join("\n");
    const loaded = parseConfigText(yaml, {
      source: join(world.dir, "bot.yml"),
      env: {
        LAB_TOKEN,
        WRONG_TOKEN,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: world.fake.apiUrl,
      },
      readFile: (p) => (p.endsWith("ca2.pem") ? other.ca : world.sim.ca),
      baseDir: world.dir,
    });
    app = await startRunSlack(loaded);
  });
  afterAll(async () => {
    await app?.stop();
    await other?.close();
    await world?.close();
  });

  it("after a busy session, no secret appears anywhere", async () => {
    const driver = httpDriver(app.baseUrl, SIGNING_SECRET);
    let n = 0;
    const run = async (text: string) => {
      const url = world.fake.responseUrl(`s-${++n}`);
      await driver.command(slashCommand({ text, userId: "U1", responseUrl: url }));
      return (await world.fake.waitForResponse((r) => url.endsWith(`/${r.id}`))).body;
    };
    await run("fs list");
    await run("fs create sec-fs 1T --nfs");
    expect(JSON.stringify(await run("fs list --array lab-2"))).toContain("refused the bot's API token");
    world.sim.control.invalidateSessions();
    world.sim.control.failRequests({ method: "GET", path: "/file-systems", status: 500, count: 1 });
    await run("fs list");
    world.fake.script("chat.postMessage", { error: "invalid_auth" });
    const prompt = await run("fs destroy sec-fs");
    const pendingId = JSON.stringify(prompt).match(/"value":"([^"]+)"/)?.[1] ?? "";
    const clicked = world.fake.responseUrl("s-click");
    await driver.interactive(
      blockAction({
        actionId: ACTIONS.confirm,
        value: pendingId,
        userId: "U1",
        messageTs: "1700000000.000400",
        ephemeral: true,
        responseUrl: clicked,
      }),
    );
    await world.fake.waitForResponse((r) => r.id === "s-click");
    expect(world.sim.state.fileSystems.get("sec-fs")?.destroyed).toBe(true);
    // The audit channel's lines go out in the channel's own time: the last one (the Confirm's) is scanned too.
    await world.fake.waitForCall(
      "chat.postMessage",
      (c) =>
        c.args["channel"] === "CAUDIT" && /fs\.destroy` confirmed/.test(JSON.stringify(c.args["blocks"])),
    );
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();

    const places = {
      log: app.log.text(),
      // What the bot sent (not the bot token it authenticates with, which Slack must get).
      slack: JSON.stringify([
        world.fake.calls.map(({ args: { token: _, ...rest } }) => rest),
        world.fake.responses,
      ]),
      metrics,
    };
    expect(places.log.length).toBeGreaterThan(1000);
    for (const [where, text] of Object.entries(places)) {
      for (const secret of [LAB_TOKEN, WRONG_TOKEN, BOT_TOKEN, SIGNING_SECRET]) {
        expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
      }
      // Session tokens are minted by the array; any header carrying one must be redacted.
      expect(text).not.toMatch(/x-auth-token"?\s*[:=]\s*"?(?!\[redacted\])[0-9a-f]{8}-/i);
    }
  });
});
