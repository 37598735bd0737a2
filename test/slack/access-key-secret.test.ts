/**
 * A new access key's secret, end to end through Slack: Bolt fed signed requests, the real pipeline with a
 * SQLite pending store on disk, a simulated array over HTTPS, the fake Slack Web API. The secret must appear
 * exactly once — in the requester's private answer — and nowhere else the bot writes: Slack calls, response
 * URLs, uploads, log lines, audit records, the store's files, /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { slashCommand } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type SecretBot, startSecretBot } from "./helpers/secret-bot.js";

const USER = "analytics/etl";

describe("access-key create: the secret is shown once, to the requester alone", () => {
  let bot: SecretBot;
  let sim: Simulator;
  let h: Harness;
  let audit: SecretBot["audit"];
  let log: SecretBot["log"];
  let seq = 0;

  beforeAll(async () => {
    bot = await startSecretBot("secret-scan-");
    ({ sim, h, audit, log } = bot);
  });

  afterAll(async () => bot?.stop());

  const keysOf = (user: string) => [...sim.state.accessKeys.values()].filter((k) => k.user === user);
  const run = async (text: string, userId = "UBOB") => {
    const url = h.fake.responseUrl(`ak-${++seq}`);
    await h.driver.command(slashCommand({ text, userId, responseUrl: url }));
    return h.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
  };
  const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

  /** Everything the bot wrote anywhere except response URLs (the requester's answer is one). */
  async function everywhere(): Promise<Record<string, string>> {
    const { "response URL posts": _answers, ...rest } = await bot.everywhere();
    return rest;
  }

  it("answers privately with the secret, says it will not be shown again, and writes it nowhere else", async () => {
    const before = new Set(keysOf(USER).map((k) => k.name));
    const answer = await run(`access-key create ${USER}`);
    const created = keysOf(USER).find((k) => !before.has(k.name));
    if (!created) throw new Error("no key was created");
    const secret = created.secret;
    expect(secret.length).toBeGreaterThanOrEqual(20);

    expect(answer.body["response_type"]).toBe("ephemeral");
    const shown = JSON.stringify(answer.body);
    expect(occurrences(shown, secret)).toBe(1);
    expect(shown).toContain(created.name);
    expect(shown).toContain("it will not be shown again");

    // Other replies the same request got, and every other response URL post: no secret.
    const responses = h.fake.responses.map((r) => JSON.stringify(r.body));
    expect(responses.reduce((n, r) => n + occurrences(r, secret), 0)).toBe(1);
    for (const [place, text] of Object.entries(await everywhere())) {
      expect({ place, found: text.includes(secret) }).toEqual({ place, found: false });
    }
    // The scan is real: the audit record and the logs did see this request.
    expect(audit.records.at(-1)).toMatchObject({ command: "access-key.create", outcome: "ok" });
    expect(log.text()).toContain("access-key");
  });

  it("listings name keys, never secrets", async () => {
    const listed = JSON.stringify((await run(`access-key list ${USER}`, "UCAROL")).body);
    for (const k of keysOf(USER)) {
      expect(listed).toContain(k.name);
      expect(listed).not.toContain(k.secret);
    }
  });

  it("when the response URL fails, the secret goes as an ephemeral message to the requester, never to the channel", async () => {
    // Room for another key (a user holds two at most).
    for (const k of keysOf(USER)) sim.state.accessKeys.delete(k.name);
    h.fake.responseUrlStatus = 404;
    try {
      const before = new Set(keysOf(USER).map((k) => k.name));
      const url = h.fake.responseUrl(`ak-${++seq}`);
      const posts = h.fake.callsOf("chat.postEphemeral").length;
      await h.driver.command(
        slashCommand({ text: `access-key create ${USER}`, userId: "UBOB", responseUrl: url }),
      );
      const eph = await h.fake.waitForCall("chat.postEphemeral", () => true, posts + 1);
      const created = keysOf(USER).find((k) => !before.has(k.name));
      if (!created) throw new Error("no key was created");
      expect(eph.args).toMatchObject({ channel: "C1", user: "UBOB" });
      expect(JSON.stringify(eph.args)).toContain(created.secret);
      expect(JSON.stringify(h.fake.callsOf("chat.postMessage"))).not.toContain(created.secret);
      expect(log.text()).not.toContain(created.secret);
    } finally {
      h.fake.responseUrlStatus = 200;
    }
  });
});
