/**
 * Role checks on every button and modal the pipeline draws: a forged click (right action id, right pending
 * id) by an unmapped user or a viewer is refused with a user-facing answer, changes nothing on the array and
 * leaves the request as it was. The buttons come from ACTIONS, so a new one fails this test until covered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { blockAction, viewSubmission } from "../fakes/payloads.js";
import { type BotWorld, startBotWorld, USERS } from "../fuzz/helpers/bot-world.js";

const FORGERS = [USERS.viewer, USERS.unmapped] as const;

type ButtonJson = { action_id: string; value: string };
const buttonsIn = (payload: unknown): ButtonJson[] =>
  JSON.stringify(payload)
    .match(/\{"type":"button"[^{}]*(\{[^{}]*\}[^{}]*)*\}/g)
    ?.map((j) => JSON.parse(j)) ?? [];

describe("role checks on every button and modal", () => {
  let w: BotWorld;
  /** A pending id for each action id, taken from real messages. */
  const targets = new Map<string, string>();
  let eradicateId = "";

  beforeAll(async () => {
    w = await startBotWorld();
    // A confirmation (destroy, by an operator): Confirm and Deny.
    const destroy = await w.command("fs destroy home", USERS.operator);
    for (const b of buttonsIn(destroy)) targets.set(b.action_id, b.value);
    // A destroy carried out by an admin: its result offers Recover.
    const prompt = await w.command("fs destroy logs", USERS.admin);
    const confirm = buttonsIn(prompt).find((b) => b.action_id === ACTIONS.confirm);
    const done = w.nextResponseUrl();
    await w.slack.driver.interactive(
      blockAction({
        actionId: ACTIONS.confirm,
        value: confirm?.value ?? "",
        userId: USERS.admin,
        messageTs: "1700000000.000200",
        ephemeral: true,
        responseUrl: done,
      }),
    );
    const results = await w.slack.fake.waitForResponse((r) => done.endsWith(`/${r.id}`), 2);
    for (const b of buttonsIn(results.body)) targets.set(b.action_id, b.value);
    // An approval (eradicate, by an admin): Approve, which opens the typed-name modal, and Deny.
    const posts = w.slack.fake.callsOf("chat.postMessage").length;
    await w.command("fs eradicate logs", USERS.admin);
    const card = await w.slack.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    for (const b of buttonsIn(card.args["blocks"])) {
      if (b.action_id === ACTIONS.approve) eradicateId = b.value;
      if (!targets.has(b.action_id)) targets.set(b.action_id, b.value);
    }
  });
  afterAll(() => w?.close());

  it("every action id the pipeline draws is covered", () => {
    for (const id of Object.values(ACTIONS)) expect(targets.has(id), id).toBe(true);
    expect(eradicateId).not.toBe("");
  });

  const cases = [
    ...Object.values(ACTIONS).flatMap((a) => FORGERS.map((u) => [a, "", u] as const)),
    // Deny on an approval card is a veto, a different check from cancelling a confirmation.
    ...FORGERS.map((u) => [ACTIONS.deny, " (approval card)", u] as const),
  ];
  it.each(cases)("%s%s clicked by %s is refused and changes nothing", async (actionId, card, user) => {
    const pendingId = card === "" ? (targets.get(actionId) ?? "") : eradicateId;
    const before = { mutations: w.mutations(), rec: await w.store.get(pendingId) };
    const responseUrl = w.nextResponseUrl();
    await w.slack.driver.interactive(
      blockAction({
        actionId,
        value: pendingId,
        userId: user,
        messageTs: "1700000000.000300",
        responseUrl,
      }),
    );
    const reply = await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
    const text = String(reply.body["text"]);
    expect(text).toMatch(/role|not allowed|may not|cannot|only|permission|no access|not mapped/i);
    expect(text).not.toMatch(/Something went wrong/);
    expect(w.mutations()).toBe(before.mutations);
    expect(await w.store.get(pendingId)).toEqual(before.rec);
    expect(w.slack.fake.callsOf("views.open").filter((c) => JSON.stringify(c).includes(pendingId))).toEqual(
      [],
    );
  });

  it.each(FORGERS)("a forged typed-name modal submission by %s approves nothing", async (user) => {
    const before = { mutations: w.mutations(), rec: await w.store.get(eradicateId) };
    const refused = w.log.waitFor(
      (l) => l["msg"] === "request refused" && l["user"] === user && l["pendingId"] === eradicateId,
    );
    await w.slack.driver.interactive(
      viewSubmission({
        userId: user,
        privateMetadata: JSON.stringify({ p: eradicateId, a: ACTIONS.approve, c: "C1" }),
        typedText: "logs",
      }),
    );
    await refused;
    expect(w.mutations()).toBe(before.mutations);
    expect(await w.store.get(eradicateId)).toEqual(before.rec);
    expect(w.sim.state.fileSystems.has("logs")).toBe(true);
  });
});
