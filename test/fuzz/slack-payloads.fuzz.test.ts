/**
 * Hostile and broken Slack deliveries through Bolt's real HTTP receiver, correctly signed (so they get past
 * the signature check and reach the parsing and listeners): malformed JSON in `payload`, JSON of the wrong
 * shape, huge and odd-Unicode command text, missing and mistyped fields, and forged clicks naming someone
 * else's request. The bot never crashes or hangs, people get user-facing errors (never the generic
 * "something went wrong"), and nothing is sent to the array.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { commandBody, interactiveBody, signedPost } from "../fakes/signed-request.js";
import { SECRET } from "../slack/helpers/harness.js";
import { type BotWorld, startBotWorld, USERS } from "./helpers/bot-world.js";

const GENERIC = /Something went wrong/;
const ODD = fc.constantFrom(
  "\u0000",
  "\u202e",
  "\u200b",
  "\ud800",
  "🚀",
  "名前",
  "é",
  "<!channel>",
  "<@U1>",
  "&amp;",
  "`",
  "*",
  "'",
  '"',
  "\\",
  "\n",
  "--",
  "=",
);
const WORDS = fc.constantFrom(
  "fs",
  "snapshot",
  "list",
  "show",
  "destroy",
  "eradicate",
  "recover",
  "help",
  "space",
  "alert",
  "arrays",
  "--array",
  "--name",
  "--limit",
  "--sort",
  "--public",
  "--dry-run",
  "all",
  "lab-1",
  "logs",
  "home",
  "9T",
  "-1",
  "1e999",
);
const text = fc
  .array(fc.oneof(WORDS, ODD, fc.string({ unit: "grapheme", maxLength: 6 })), { maxLength: 12 })
  .map((p) => p.join(" "));

describe("Slack payload fuzz (signed requests through Bolt's HTTP receiver)", () => {
  let w: BotWorld;
  let url: string;
  beforeAll(async () => {
    w = await startBotWorld();
    url = `${w.slack.baseUrl}/slack/events`;
  });
  afterAll(() => w.close());

  const post = (body: string, contentType?: string) =>
    signedPost(url, body, { secret: SECRET, ...(contentType ? { contentType } : {}) });

  it("refuses malformed and wrongly shaped bodies at once, and keeps serving", async () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 200 }).map((s) => new URLSearchParams({ payload: s }).toString()),
      fc
        .jsonValue({ maxDepth: 3 })
        .map((v) => new URLSearchParams({ payload: JSON.stringify(v) }).toString()),
      fc.constantFrom(
        "payload=null",
        "payload=%5B%5D",
        "payload=1",
        "payload=%22x%22",
        "x=1",
        "",
        "payload=",
      ),
      fc.string({ unit: "binary", maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await post(body);
        expect([200, 400, 401, 404, 413]).toContain(res.status);
        expect(res.text).not.toMatch(/at .*\.js:\d+/);
      }),
      { numRuns: 80 },
    );
    const json = await post("null", "application/json");
    expect(json.status).toBe(400);
    const huge = await post(`payload=${"x".repeat(2 * 1024 * 1024)}`);
    expect(huge.status).toBe(413);
    expect(w.mutations()).toBe(0);
    const answer = await w.command("fs list", USERS.viewer);
    expect(String(answer["text"])).toContain("file systems on array lab-1");
  });

  it("answers any command text, huge or odd, with an answer or a user-facing error; changes nothing", async () => {
    const users = fc.constantFrom(...Object.values(USERS));
    const texts = fc.oneof(
      { weight: 6, arbitrary: text },
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 3000, maxLength: 40_000 }) },
    );
    await fc.assert(
      fc.asyncProperty(texts, users, async (t, user) => {
        const answer = await w.command(t, user);
        expect(String(answer["text"])).not.toMatch(GENERIC);
        expect(JSON.stringify(answer)).not.toMatch(/at .*\.(js|ts):\d+/);
      }),
      { numRuns: 60 },
    );
    expect(w.mutations()).toBe(0);
  });

  it("survives slash commands with missing or mistyped fields", async () => {
    const base = slashCommand({ text: "fs list", responseUrl: w.nextResponseUrl() });
    // Without "/array" no listener matches and Bolt holds the request 3 s before its 404: slow, not broken.
    const keys = Object.keys(base).filter((k) => k !== "command");
    const mutated = fc.record({
      drop: fc.subarray(keys, { minLength: 1 }),
      retype: fc.dictionary(fc.constantFrom(...keys), fc.string({ unit: "binary", maxLength: 20 }), {
        maxKeys: 3,
      }),
    });
    await fc.assert(
      fc.asyncProperty(mutated, async (m) => {
        const p: Record<string, string> = { ...base, trigger_id: `t-${Math.random()}` };
        for (const k of m.drop) delete p[k];
        Object.assign(p, m.retype);
        const res = await post(commandBody(p));
        expect([200, 400, 401, 404]).toContain(res.status);
      }),
      { numRuns: 60 },
    );
    expect(w.mutations()).toBe(0);
  });

  it("survives block_actions payloads with missing or mistyped fields", async () => {
    const base = blockAction({
      actionId: ACTIONS.confirm,
      value: "nope",
      userId: USERS.operator,
      messageTs: "1700000000.000001",
      responseUrl: w.nextResponseUrl(),
    });
    const keys = Object.keys(base).filter((k) => k !== "type" && k !== "actions");
    const junk = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.string({ maxLength: 5 }),
      fc.constant([]),
      fc.constant({}),
    );
    const mutated = fc.record({
      drop: fc.subarray(keys),
      retype: fc.dictionary(fc.constantFrom(...keys), junk, { maxKeys: 3 }),
      action: fc.record(
        {
          type: fc.constantFrom("button", "static_select", 5),
          action_id: fc.oneof(
            fc.constantFrom(...Object.values(ACTIONS)),
            fc.string({ maxLength: 300 }),
            fc.integer(),
          ),
          value: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant(null)),
          action_ts: fc.oneof(fc.constant("1700000000.1"), fc.integer()),
        },
        { requiredKeys: ["type"] },
      ),
    });
    await fc.assert(
      fc.asyncProperty(mutated, async (m) => {
        const p: Record<string, unknown> = { ...base, trigger_id: `t-${Math.random()}`, actions: [m.action] };
        for (const k of m.drop) delete p[k];
        Object.assign(p, m.retype);
        const res = await post(interactiveBody(p));
        expect([200, 400, 401, 404, 500]).toContain(res.status);
      }),
      { numRuns: 60 },
    );
    expect(w.mutations()).toBe(0);
    const answer = await w.command("fs list --limit 1", USERS.viewer);
    expect(String(answer["text"])).toContain("file systems");
  });

  it("forged clicks on someone else's request (any action id, any value) do nothing and say why", async () => {
    const prompt = await w.command("fs destroy logs", USERS.operator);
    const buttons = JSON.stringify(prompt["blocks"]).match(/"value":"([^"]+)"/);
    const pendingId = buttons?.[1] ?? "";
    expect(pendingId).not.toBe("");
    const forgers = fc.constantFrom(USERS.viewer, USERS.unmapped);
    const actionIds = fc.oneof(
      fc.constantFrom(...Object.values(ACTIONS)),
      fc.constantFrom("array.pending.confirm ", "ARRAY.PENDING.CONFIRM", "alert.snooze", "array.pending"),
      fc.string({ maxLength: 40 }),
    );
    const values = fc.oneof(
      fc.constant(pendingId),
      fc.constantFrom(`${pendingId} `, `${pendingId}x`, pendingId.toUpperCase(), "", "../../etc/passwd"),
      fc.string({ maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(forgers, actionIds, values, async (user, actionId, value) => {
        fc.pre(actionId.trim() !== "");
        const responseUrl = w.nextResponseUrl();
        const ack = await w.slack.driver.interactive(
          blockAction({ actionId, value, userId: user, messageTs: "1700000000.000002", responseUrl }),
        );
        expect(ack.status).toBe(200);
        const reply = await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
        expect(String(reply.body["text"])).not.toMatch(GENERIC);
      }),
      { numRuns: 60 },
    );
    expect(w.sim.state.fileSystems.get("logs")?.destroyed).toBe(false);
    expect(w.mutations()).toBe(0);

    // The request survived the forgeries: its owner can still confirm it, and it runs once.
    const responseUrl = w.nextResponseUrl();
    await w.slack.driver.interactive(
      blockAction({
        actionId: ACTIONS.confirm,
        value: pendingId,
        userId: USERS.operator,
        messageTs: "1700000000.000003",
        ephemeral: true,
        responseUrl,
      }),
    );
    await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
    expect(w.sim.state.fileSystems.get("logs")?.destroyed).toBe(true);
    expect(w.mutations()).toBe(1);
  });
});
