/**
 * Signed requests: the real HTTP receiver (Bolt's, behind the bot's guard) refuses unsigned, tampered, stale, future-dated and wrongly
 * signed requests before anything runs; a signed request replayed within the five-minute window (the same
 * bytes, headers and signature) runs once: one change on the array, one audit record, one answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { commandBody, interactiveBody, slackSignature } from "../fakes/signed-request.js";
import { type BotWorld, startBotWorld, USERS } from "../fuzz/helpers/bot-world.js";
import { requestCount } from "../helpers/wire.js";
import { SECRET } from "../slack/helpers/harness.js";

describe("Slack request signatures and replays", () => {
  let w: BotWorld;
  let url: string;
  beforeAll(async () => {
    w = await startBotWorld();
    url = `${w.slack.baseUrl}/slack/events`;
  });
  afterAll(() => w?.close());

  /** One signed request, frozen: every send repeats the exact bytes and headers. */
  const frozen = (body: string, opts: { secret?: string; ts?: number; sign?: string; sig?: string } = {}) => {
    const ts = opts.ts ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(ts),
      "x-slack-signature": opts.sig ?? slackSignature(opts.secret ?? SECRET, ts, opts.sign ?? body),
    };
    return async () => (await fetch(url, { method: "POST", body, headers })).status;
  };
  /** Resolves once `n` duplicate deliveries of kind `what` have been dropped. */
  const duplicatesDropped = (what: "command" | "click", n: number) => {
    let seen = 0;
    return w.log.waitFor((l) => l["msg"] === `duplicate delivery of a ${what} ignored` && ++seen >= n);
  };

  it("refuses unsigned, tampered, stale, future-dated and wrongly signed requests; nothing runs", async () => {
    const create = commandBody(
      slashCommand({
        text: "fs create sig-x 1T --nfs",
        userId: USERS.operator,
        responseUrl: w.nextResponseUrl(),
      }),
    );
    const other = commandBody(
      slashCommand({
        text: "fs create sig-y 1T --nfs",
        userId: USERS.operator,
        responseUrl: w.nextResponseUrl(),
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    const unsigned = async () =>
      (
        await fetch(url, {
          method: "POST",
          body: create,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        })
      ).status;
    const attempts = [
      unsigned,
      frozen(create, { sign: other }),
      frozen(create, { ts: now - 6 * 60 }),
      frozen(create, { ts: now + 6 * 60 }),
      frozen(create, { secret: "not-the-signing-secret-0000" }),
      frozen(create, { sig: "v1=deadbeef" }),
      frozen(create, { sig: "" }),
      frozen(create, { sig: `${slackSignature(SECRET, now, create).slice(0, 66)}` }),
      frozen(create, { sig: slackSignature(SECRET, now, create).toUpperCase().replace("V0=", "v0=") }),
    ];
    for (const attempt of attempts) expect(await attempt()).toBe(401);
    // The same unsigned command at spellings of the events path: refused, or not routed to Bolt's events at all.
    for (const path of [
      "/slack/events?x=1",
      "/slack/./events",
      "/slack/x/../events",
      "/slack//events",
      "/slack/%65vents",
    ]) {
      const res = await fetch(`${w.slack.baseUrl}${path}`, {
        method: "POST",
        body: create,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect([401, 404]).toContain(res.status);
    }
    expect(w.mutations()).toBe(0);
    expect(w.audits).toHaveLength(0);
    expect(w.sim.state.fileSystems.has("sig-x")).toBe(false);
  });

  it("answers Slack's unsigned ssl_check and runs nothing it carries", async () => {
    const smuggled = commandBody({
      ssl_check: "1",
      ...slashCommand({
        text: "fs create sig-ssl 1T --nfs",
        userId: USERS.operator,
        responseUrl: w.nextResponseUrl(),
      }),
      payload: JSON.stringify(
        blockAction({
          actionId: ACTIONS.confirm,
          value: "x",
          userId: USERS.operator,
          messageTs: "1700000000.000200",
          responseUrl: w.nextResponseUrl(),
        }),
      ),
    });
    for (const body of ["ssl_check=1&token=abc", smuggled]) {
      const res = await fetch(url, {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("");
    }
    expect(w.mutations()).toBe(0);
    expect(w.audits).toHaveLength(0);
    expect(w.sim.state.fileSystems.has("sig-ssl")).toBe(false);
  });

  it("a signed command replayed within the window runs once", async () => {
    const responseUrl = w.nextResponseUrl();
    const body = commandBody(
      slashCommand({ text: "fs create sig-once 1T --nfs", userId: USERS.operator, responseUrl }),
    );
    const send = frozen(body);
    const dropped = duplicatesDropped("command", 3);
    const statuses = await Promise.all([send(), send(), send(), send()]);
    expect(statuses).toEqual([200, 200, 200, 200]);
    await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
    await dropped;
    expect(w.sim.state.fileSystems.has("sig-once")).toBe(true);
    expect(requestCount(w.sim.control.stats(), "POST /api/1.12/file-systems")).toBe(1);
    expect(w.audits.filter((a) => a.command === "fs.create")).toHaveLength(1);
    expect(w.slack.fake.responses.filter((r) => responseUrl.endsWith(`/${r.id}`))).toHaveLength(1);
  });

  it("a signed confirmation click replayed within the window acts once", async () => {
    const prompt = await w.command("fs destroy sig-once", USERS.operator);
    const pendingId = JSON.stringify(prompt["blocks"]).match(/"value":"([^"]+)"/)?.[1] ?? "";
    const responseUrl = w.nextResponseUrl();
    const click = interactiveBody(
      blockAction({
        actionId: ACTIONS.confirm,
        value: pendingId,
        userId: USERS.operator,
        messageTs: "1700000000.000100",
        ephemeral: true,
        responseUrl,
      }),
    );
    const send = frozen(click);
    const before = w.mutations();
    const dropped = duplicatesDropped("click", 2);
    expect(await Promise.all([send(), send(), send()])).toEqual([200, 200, 200]);
    await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
    await dropped;
    expect(w.sim.state.fileSystems.get("sig-once")?.destroyed).toBe(true);
    expect(w.mutations() - before).toBe(1);
    expect(w.audits.filter((a) => a.pendingId === pendingId && a.decision === "confirmed")).toHaveLength(1);
  });
});
