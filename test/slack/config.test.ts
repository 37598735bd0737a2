import { describe, expect, it } from "vitest";
import { loadSlackConfig, slackSectionFromEnv } from "../../src/config/slack.js";

const BOT = "xoxb-1-abc";
const APPTOK = "xapp-1-def";
const SECRET = "shhh-signing-secret";

describe("slack config from the environment", () => {
  it("is absent without Slack variables (the console runs instead)", () => {
    expect(loadSlackConfig({ PORT: "8080" })).toBeUndefined();
  });

  it("defaults to Socket Mode with an app token", () => {
    const c = loadSlackConfig({
      SLACK_BOT_TOKEN: BOT,
      SLACK_APP_TOKEN: APPTOK,
      PORT: "9000",
      METRICS_PORT: "9100",
    });
    expect(c).toMatchObject({
      mode: "socket",
      botToken: BOT,
      appToken: APPTOK,
      port: 9000,
      metricsPort: 9100,
      command: "/array",
    });
  });

  it("chooses HTTP mode with a signing secret and no app token, and takes SLACK_API_URL", () => {
    const c = loadSlackConfig({
      SLACK_BOT_TOKEN: BOT,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: "http://127.0.0.1:9/api",
    });
    expect(c).toMatchObject({
      mode: "http",
      signingSecret: SECRET,
      apiUrl: "http://127.0.0.1:9/api/",
      eventsPath: "/slack/events",
    });
  });

  it("merges the file's non-secret settings under the environment", () => {
    const c = loadSlackConfig(
      { SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: APPTOK },
      { channelIntervalMs: 1500, port: 7000 },
    );
    expect(c).toMatchObject({ channelIntervalMs: 1500, port: 7000 });
  });

  it("reports every problem at once, with the variable to set, and never echoes a secret", () => {
    let message = "";
    try {
      loadSlackConfig({
        SLACK_APP_TOKEN: "xoxp-user-token-oops",
        SLACK_MODE: "socket",
        SLACK_API_URL: "ftp://x",
        PORT: "99999",
      });
    } catch (err) {
      message = (err as Error).message;
      expect(err).toMatchObject({ code: "CONFIG_SLACK_INVALID" });
    }
    expect(message).toContain("SLACK_BOT_TOKEN is required");
    expect(message).toContain("SLACK_APP_TOKEN must be an app-level token");
    expect(message).toContain("SLACK_API_URL must be an http(s) URL");
    expect(message).toContain("slack.port");
    expect(message).not.toContain("xoxp-user-token-oops");
  });

  it("needs the secret of the chosen mode", () => {
    expect(() => loadSlackConfig({ SLACK_BOT_TOKEN: BOT, SLACK_MODE: "http" })).toThrow(
      /SLACK_SIGNING_SECRET/,
    );
    expect(() =>
      loadSlackConfig({ SLACK_BOT_TOKEN: BOT, SLACK_MODE: "socket", SLACK_SIGNING_SECRET: SECRET }),
    ).toThrow(/SLACK_APP_TOKEN/);
  });

  it("refuses secrets written into the configuration file", () => {
    expect(() => slackSectionFromEnv({ SLACK_BOT_TOKEN: BOT }, { botToken: "xoxb-in-file" })).toThrow(
      /SLACK_BOT_TOKEN in the environment/,
    );
  });
});
