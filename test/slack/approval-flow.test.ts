import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METHOD_SCOPES } from "../../src/slack/scopes.js";
import { blockAction, eventCallback, slashCommand, viewSubmission } from "../fakes/payloads.js";
import type { ApiCall } from "../fakes/slack-api-server.js";
import { type Harness, type Mode, startHarness } from "./helpers/harness.js";
import { APPROVE, APPROVERS, DENY, TestPipeline } from "./helpers/test-pipeline.js";

describe.each<Mode>(["http", "socket"])("approvals over %s", (mode) => {
  let h: Harness;
  let pipeline: TestPipeline;
  let clock = Date.now();
  let seq = 0;

  beforeAll(async () => {
    h = await startHarness(mode, {
      pipeline: ({ identity }) => {
        pipeline = new TestPipeline(identity, () => clock);
        return pipeline;
      },
      groupIds: [APPROVERS],
      now: () => clock,
    });
    h.fake.groups.set(APPROVERS, ["U2"]);
  });
  afterAll(() => h.stop());

  const url = (tag: string) => h.fake.responseUrl(`${tag}-${++seq}`);
  const responseTo = (responseUrl: string) => h.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));

  /** Runs `/array <text>` as U1 and returns the approval card's ts and pending id. */
  async function request(text: string): Promise<{ ts: string; pendingId: string; post: ApiCall }> {
    const before = h.fake.callsOf("chat.postMessage").length;
    const responseUrl = url("cmd");
    await h.driver.command(slashCommand({ text, userId: "U1", responseUrl }));
    const post = await h.fake.waitForCall("chat.postMessage", () => true, before + 1);
    await responseTo(responseUrl);
    const pendingId = `P${pipeline.pending.size}`;
    const ts = [...h.fake.messages.values()].find(
      (m) => m.channel === "C1" && m.text.includes(text.split(" ")[1] ?? ""),
    )?.ts;
    return { ts: ts ?? "", pendingId, post };
  }

  /** U2 clicks Approve with a trigger id, as Slack sends one with every click (a dialog may open). */
  async function approveWithTrigger(
    pendingId: string,
    messageTs: string,
    triggerId: string,
    responseUrl: string,
  ) {
    await h.driver.interactive(
      blockAction({ actionId: APPROVE, value: pendingId, userId: "U2", messageTs, responseUrl, triggerId }),
    );
  }

  async function click(userId: string, actionId: string, value: string, messageTs: string) {
    const responseUrl = url("click");
    const ack = await h.driver.interactive(
      blockAction({ actionId, value, userId, messageTs, responseUrl, userName: userId.toLowerCase() }),
    );
    return { ack, responseUrl };
  }

  it("posts the request in the channel, refuses the requester and outsiders, executes once on a double click", async () => {
    const { ts, pendingId, post } = await request("destroy fs1");
    expect(post.args["channel"]).toBe("C1");
    const posted = JSON.stringify(post.args["blocks"]);
    expect(posted).toContain(`"action_id":"${APPROVE}"`);
    // The deny button is red and asks for confirmation.
    expect(posted).toMatch(
      /"action_id":"test\.deny","value":"P\d+","style":"danger","confirm":\{[^}]*.*"style":"danger"/,
    );
    expect(pipeline.pending.get(pendingId)?.refs).toEqual([{ channelId: "C1", ts }]);

    const outsider = await click("U3", APPROVE, pendingId, ts);
    expect((await responseTo(outsider.responseUrl)).body).toMatchObject({
      response_type: "ephemeral",
      text: "You are not an approver for this array.",
    });
    const self = await click("U1", APPROVE, pendingId, ts);
    expect((await responseTo(self.responseUrl)).body["text"]).toBe("You cannot approve your own request.");
    expect(pipeline.executed).toEqual([]);

    // Two clicks in flight at once: the change runs once, the message is updated once, the late click is told.
    const [a, b] = await Promise.all([
      click("U2", APPROVE, pendingId, ts),
      click("U2", APPROVE, pendingId, ts),
    ]);
    await h.fake.waitForUpdate((u) => u.ts === ts);
    // One click's response_url replaces the card; the other is answered privately.
    const late = await h.fake.waitForResponse(
      (r) => [a, b].some((c) => c.responseUrl.endsWith(`/${r.id}`)) && r.body["replace_original"] !== true,
    );
    expect(late.body["text"]).toBe("This request is already executed.");
    expect(pipeline.executed).toEqual(["fs1"]);
    // Replaced once, through the click's response_url: no Web API call that a rate limit could hold.
    expect(h.fake.updatesOf(ts).map((u) => u.via)).toEqual(["response_url"]);
    const msg = h.fake.messages.get(`C1/${ts}`);
    expect(JSON.stringify(msg?.blocks)).toContain("Executed, approved by u2");
    expect(JSON.stringify(msg?.blocks)).not.toContain('"type":"actions"');
    // Every click reached the pipeline with the clicker as actor and the card as ref.
    expect(pipeline.clicks.at(-1)).toMatchObject({
      actor: { userId: "U2", channelId: "C1" },
      ref: { channelId: "C1", ts },
    });
  });

  it("lets a user approve once they are added to the approvers group", async () => {
    const { ts, pendingId } = await request("destroy fs2");
    const first = await click("U4", APPROVE, pendingId, ts);
    expect((await responseTo(first.responseUrl)).body["text"]).toBe(
      "You are not an approver for this array.",
    );

    h.fake.groups.set(APPROVERS, ["U2", "U4"]);
    const changed = h.log.waitFor((l) => l["msg"] === "user group membership changed");
    await h.driver.event(
      eventCallback({
        type: "subteam_members_changed",
        subteam_id: APPROVERS,
        team_id: "T1",
        added_users: ["U4"],
        added_users_count: 1,
        date_previous_update: 1,
        date_update: 2,
        event_ts: "1.1",
      }),
    );
    await changed;
    await click("U4", APPROVE, pendingId, ts);
    await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(pipeline.executed).toContain("fs2");
  });

  it("drops an approver removed from the group (subteam_updated refetches the group)", async () => {
    const { ts, pendingId } = await request("destroy fs3");
    h.fake.groups.set(APPROVERS, ["U2"]);
    const reloaded = h.log.waitFor(
      (l) => l["msg"] === "user group loaded" && JSON.stringify(l["removed"]) === '["U4"]',
    );
    await h.driver.event(
      eventCallback({ type: "subteam_updated", subteam: { id: APPROVERS, users: ["U2"] }, event_ts: "1.2" }),
    );
    await reloaded;
    const c = await click("U4", APPROVE, pendingId, ts);
    expect((await responseTo(c.responseUrl)).body["text"]).toBe("You are not an approver for this array.");
    expect(pipeline.executed).not.toContain("fs3");
  });

  it("asks the approver to type the name in a modal before an eradication counts", async () => {
    const { ts, pendingId } = await request("eradicate fs9");
    const before = h.fake.callsOf("views.open").length;
    const trigger = `trig-modal-${mode}`;
    const clickUrl = url("click");
    await approveWithTrigger(pendingId, ts, trigger, clickUrl);
    const open = await h.fake.waitForCall("views.open", () => true, before + 1);
    expect(open.args["trigger_id"]).toBe(trigger);
    const view = open.args["view"] as { private_metadata: string; blocks: { label: { text: string } }[] };
    expect(view.blocks[0]?.label.text).toBe("Type fs9 to confirm");

    await h.driver.interactive(
      viewSubmission({ userId: "U2", privateMetadata: view.private_metadata, typedText: "fs8" }),
    );
    // Answered privately through the response_url of the click that opened the dialog.
    const refused = await responseTo(clickUrl);
    expect(refused.body).toMatchObject({
      response_type: "ephemeral",
      text: "The name did not match. Nothing was done.",
    });
    expect(pipeline.executed).not.toContain("fs9");

    await h.driver.interactive(
      viewSubmission({ userId: "U2", privateMetadata: view.private_metadata, typedText: "fs9" }),
    );
    // The card is replaced through that same response_url: no chat.update a rate limit could hold.
    const replaced = await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(replaced.via).toBe("response_url");
    expect(pipeline.executed).toContain("fs9");
    expect(pipeline.clicks.at(-1)).toMatchObject({ typedText: "fs9", value: pendingId, ref: { ts } });
  });

  it("closes the dialog with the reason when the check run while it opened voids the request", async () => {
    const { ts, pendingId } = await request("eradicate gone-fs");
    const opens = h.fake.callsOf("views.open").length;
    const updates = h.fake.callsOf("views.update").length;
    await approveWithTrigger(pendingId, ts, "trig-gone", url("click"));
    const open = await h.fake.waitForCall("views.open", () => true, opens + 1);
    expect(open.args["trigger_id"]).toBe("trig-gone");
    // The open dialog now says why, with only a Close button; the card says the same.
    const closed = await h.fake.waitForCall("views.update", () => true, updates + 1);
    const view = closed.args["view"] as { submit?: unknown; close: { text: string }; blocks: unknown[] };
    expect(closed.args["view_id"]).toMatch(/^V\d+$/);
    expect(view.submit).toBeUndefined();
    expect(view.close.text).toBe("Close");
    expect(JSON.stringify(view.blocks)).toContain("gone-fs is not destroyed any more");
    const card = await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(JSON.stringify(card.blocks)).toContain("gone-fs is not destroyed any more");
    expect(pipeline.executed).not.toContain("gone-fs");
    expect(h.fake.unexpected).toEqual([]);
  });

  it("updates the card in place when a request expires", async () => {
    const { ts } = await request("destroy fs4");
    clock += 16 * 60_000;
    await h.app.sweep();
    const update = await h.fake.waitForCall("chat.update", (c) => c.args["ts"] === ts);
    expect(JSON.stringify(update.args["blocks"])).toContain("Expired");
  });

  it("records a deny with who denied it", async () => {
    const { ts, pendingId } = await request("destroy fs5");
    await click("U2", DENY, pendingId, ts);
    const update = await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(JSON.stringify(update.blocks)).toContain("Denied by u2");
    expect(pipeline.executed).not.toContain("fs5");
    expect(h.fake.unexpected).toEqual([]);
  });

  it("calls only Web API methods whose scopes manifest.yml asks for", () => {
    const methods = new Set(h.fake.calls.map((c) => c.method));
    expect([...methods].filter((m) => !(m in METHOD_SCOPES))).toEqual([]);
    expect(h.fake.unexpected).toEqual([]);
  });
});
