import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { onWire, requestCount } from "../helpers/wire.js";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => h.close());

const fs = (name: string) => h.sims.get("lab-1")?.state.fileSystems.get(name);
const patches = () =>
  requestCount(h.sims.get("lab-1")?.control.stats() ?? { requests: {} }, "PATCH /api/1.12/file-systems");
const kinds = (effects: readonly Effect[]) => effects.map((e) => e.kind);

describe("shrinking below usage", () => {
  test("is detected from live usage, not from the request alone", async () => {
    expect(textOf(await h.run("bob", "fs resize home 15T"))).toContain(
      "Resized *home* on lab-1: 20 TiB → 15 TiB.",
    );
    expect(fs("home")?.provisioned).toBe(15 * TIB);
    // Clients write 3.6 TiB more: the same kind of shrink now goes below usage.
    const home = fs("home");
    if (home) home.space.virtual = 16 * TIB;
    const effects = await h.run("bob", "fs resize home 14T");
    expect(kinds(effects)).toEqual(["post", "reply"]);
    const card = textOf(effects);
    expect(card).toContain("Approval needed: resize file system home on lab-1");
    expect(card).toContain("Overshoot: 2 TiB over the new size");
    expect(card).toContain(onWire("PATCH /api/1.12/file-systems?name=home&ignore_usage=true"));
    expect(fs("home")?.provisioned).toBe(15 * TIB);
  });

  test("an approval by someone else runs it, with ignore_usage for a hard-limited file system", async () => {
    const request = await h.run("bob", "fs resize builds 9T");
    const before = patches();
    const done = await h.click("alice", request, "Approve");
    expect(kinds(done)).toEqual(["update"]);
    expect(textOf(done)).toContain("Resized *builds* on lab-1: 10 TiB → 9 TiB.");
    expect(textOf(done)).toContain("Requested by bob, approved by alice.");
    expect(fs("builds")?.provisioned).toBe(9 * TIB);
    expect(patches()).toBe(before + 1);
    const sent = h.sims
      .get("lab-1")
      ?.control.stats()
      .recent.filter((r) => r.method === "PATCH");
    expect(sent?.at(-1)?.query).toContain("ignore_usage=true");
    expect(h.audits.at(-1)).toMatchObject({
      decision: "approved",
      approvedBy: ["alice"],
      outcome: "ok",
      userId: "alice",
    });
  });

  test("the requester cannot approve their own request", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    expect(textOf(await h.click("bob", request, "Approve"))).toContain("needs approval from someone else");
    expect(fs("scratch")?.provisioned).toBe(5 * TIB);
    expect(h.audits.at(-1)).toMatchObject({ decision: "denied", errorCode: "APPROVAL_BY_REQUESTER" });
    // Still open for a proper approver.
    expect(textOf(await h.click("dave", request, "Approve"))).toContain("Resized *scratch*");
  });

  test("an approver below the approver role is refused, checked at click time", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    expect(textOf(await h.click("carol", request, "Approve"))).toContain(
      "Approving this request needs the operator role on array lab-1; you are a viewer there.",
    );
    expect(textOf(await h.click("mallory", request, "Approve"))).toContain("you have no role there");
    expect(fs("scratch")?.provisioned).toBe(5 * TIB);
  });

  test("--dry-run shows the impact and the exact request and changes nothing", async () => {
    const before = patches();
    const text = textOf(await h.run("bob", "fs resize scratch 4T --dry-run"));
    expect(text).toContain("Dry run: resize file system scratch on lab-1");
    expect(text).toContain(
      onWire('PATCH /api/1.12/file-systems?name=scratch&ignore_usage=true {"provisioned":4398046511104}'),
    );
    expect(text).toContain("it would need 1 approval from someone else with the operator role");
    expect(patches()).toBe(before);
    expect(await h.store.listOpen()).toEqual([]);
  });
});

describe("the life of a pending request", () => {
  test("expiry: a late click finds it expired, and the sweep updates the card", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    h.clock.advance(15 * 60_000);
    const swept = await h.pipeline.sweepExpired();
    expect(swept).toHaveLength(1);
    expect(swept[0]).toMatchObject({ kind: "update", ref: { channelId: "C1", ts: "ts-1" } });
    expect(textOf(swept)).toContain("Expired: not approved in time. Nothing was changed.");
    expect(h.audits.at(-1)).toMatchObject({ decision: "expired", command: "fs.resize" });
    expect(textOf(await h.click("alice", request, "Approve"))).toContain("already expired");
    expect(fs("scratch")?.provisioned).toBe(5 * TIB);
  });

  test("expiry is also enforced on a click that comes before the sweep", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    h.clock.advance(16 * 60_000);
    expect(textOf(await h.click("alice", request, "Approve"))).toContain("Expired before it was approved");
    expect(fs("scratch")?.provisioned).toBe(5 * TIB);
  });

  test("veto by an approver, cancel by the requester; nothing runs afterwards", async () => {
    const first = await h.run("bob", "fs resize scratch 4T");
    expect(textOf(await h.click("carol", first, "Deny"))).toContain(
      "Denying this request needs the operator role",
    );
    expect(textOf(await h.click("alice", first, "Deny"))).toContain("Denied by alice. Nothing was changed.");
    expect(h.audits.at(-1)).toMatchObject({ decision: "vetoed", userId: "alice" });
    expect(textOf(await h.click("dave", first, "Approve"))).toContain("already denied by @alice");

    const second = await h.run("bob", "fs resize scratch 4T");
    expect(textOf(await h.click("bob", second, "Deny"))).toContain("Cancelled by bob.");
    expect(h.audits.at(-1)).toMatchObject({ decision: "cancelled" });
    expect(fs("scratch")?.provisioned).toBe(5 * TIB);
  });

  test("two approvals clicked at once execute once", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    const before = patches();
    const [a, b] = await Promise.all([
      h.click("alice", request, "Approve"),
      h.click("dave", request, "Approve"),
    ]);
    const texts = [textOf(a), textOf(b)];
    expect(texts.filter((t) => t.includes("Resized *scratch*"))).toHaveLength(1);
    expect(
      texts.filter((t) => /being carried out right now|already carried out|Another click/.test(t)),
    ).toHaveLength(1);
    expect(patches()).toBe(before + 1);
    expect(fs("scratch")?.provisioned).toBe(4 * TIB);
  });

  test("usage drifting with ongoing writes does not void a request", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    const scratch = fs("scratch");
    if (scratch) scratch.space.virtual = Math.round(5.8 * TIB);
    const done = await h.click("alice", request, "Approve");
    expect(textOf(done)).toContain("Resized *scratch* on lab-1: 5 TiB → 4 TiB.");
    expect(fs("scratch")?.provisioned).toBe(4 * TIB);

    const destroy = await h.run("bob", "fs destroy logs");
    const logs = fs("logs");
    if (logs) logs.space.virtual += 3 * 2 ** 30;
    expect(textOf(await h.click("bob", destroy, "Confirm"))).toContain("Destroyed *logs* on lab-1.");
    expect(fs("logs")?.destroyed).toBe(true);
  });

  test("usage crossing the new size voids the request and says what changed", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    const scratch = fs("scratch");
    if (scratch) scratch.space.virtual = Math.round(3.9 * TIB);
    const before = patches();
    const voided = await h.click("alice", request, "Approve");
    const text = textOf(voided);
    expect(text).toContain("Not run: the array lab-1 changed since this was requested.");
    expect(text).toContain("used over new size: yes → no");
    expect(patches()).toBe(before);
    expect(h.audits.at(-1)).toMatchObject({ decision: "voided", errorCode: "STATE_CHANGED" });
    expect(
      (await h.store.get(request[0]?.kind === "post" ? (request[0].trackPending ?? "") : ""))?.status,
    ).toBe("voided");
  });

  test("a change made through the bot itself voids it too", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    await h.run("alice", "fs resize scratch 6T");
    expect(textOf(await h.click("dave", request, "Approve"))).toContain("provisioned: 5 TiB → 6 TiB");
    expect(fs("scratch")?.provisioned).toBe(6 * TIB);
  });
});

describe("destroy, recover, eradicate", () => {
  test("destroy needs the requester's confirmation, then offers Recover", async () => {
    const card = await h.run("bob", "fs destroy logs");
    expect(kinds(card)).toEqual(["reply"]);
    const text = textOf(card);
    expect(text).toContain("Confirm: destroy file system logs on lab-1");
    expect(text).toContain("Used: 7.3 TiB of 8 TiB (91.3%)");
    expect(text).toContain("Protocols enabled: NFS, HTTP");
    expect(text).toMatch(/Snapshots: \d+/);
    expect(text).toContain("Replica links:");
    expect(fs("logs")?.destroyed).toBe(false);
    expect(textOf(await h.click("alice", card, "Confirm"))).toContain(
      "Only bob, who asked for this, can confirm it.",
    );

    const done = await h.click("bob", card, "Confirm");
    expect(textOf(done)).toContain("Destroyed *logs* on lab-1.");
    expect(textOf(done)).toContain("Confirmed by bob.");
    expect(fs("logs")?.destroyed).toBe(true);
    expect(h.audits.at(-1)).toMatchObject({ decision: "confirmed", outcome: "ok", approvedBy: ["bob"] });

    expect(textOf(await h.click("carol", done, "Recover logs"))).toContain("needs the operator role");
    const recovered = await h.click("alice", done, "Recover logs");
    expect(textOf(recovered)).toContain("Recovered *logs* on lab-1");
    expect(fs("logs")?.destroyed).toBe(false);
    expect(textOf(await h.click("bob", done, "Recover logs"))).toContain("already carried out by @alice");
  });

  test("eradication needs an admin other than the requester who types the name", async () => {
    const card = await h.run("alice", "fs eradicate old-share");
    const text = textOf(card);
    expect(text).toContain("Approval needed: eradicate file system old-share on lab-1");
    expect(text).toContain("Permanent: 4.4 TiB of data in old-share");
    expect(text).toContain("someone else with the admin role");
    expect(text).toContain("To approve, type old-share.");
    expect(textOf(await h.click("bob", card, "Approve"))).toContain("needs the admin role");

    const prompt = await h.click("dave", card, "Approve");
    expect(prompt).toEqual([
      expect.objectContaining({
        kind: "prompt",
        title: "eradicate file system old-share on lab-1",
        label: "Type old-share to go ahead",
      }),
    ]);
    expect(textOf(await h.click("dave", card, "Approve", "old-shar"))).toContain(
      'You typed "old-shar", which is not "old-share"',
    );
    expect(fs("old-share")).toBeDefined();
    const done = await h.click("dave", card, "Approve", "old-share");
    expect(textOf(done)).toContain("Eradicated *old-share* on lab-1. It is gone for good.");
    expect(fs("old-share")).toBeUndefined();
  });

  test("eradicating a live file system is refused with the way forward", async () => {
    expect(textOf(await h.run("alice", "fs eradicate home"))).toContain(
      "home is not destroyed. Destroy it first with /array fs destroy home",
    );
  });
});

describe("configured policies", () => {
  test("two approvals: the first is recorded on the card, the second runs it", async () => {
    const two = await startHarness({
      config: {
        destructive: { shrink_below_usage: { policy: "approve", approvers: 2, approver_role: "operator" } },
      },
    });
    try {
      const request = await two.run("bob", "fs resize scratch 4T");
      const first = await two.click("alice", request, "Approve");
      expect(first).toEqual([
        expect.objectContaining({ kind: "update", ref: { channelId: "C1", ts: "ts-1" } }),
      ]);
      expect(textOf(first)).toContain(
        "Needs 2 approvals from someone else with the operator role (approved so far: alice)",
      );
      expect(two.audits.at(-1)).toMatchObject({ decision: "approval_recorded", outcome: "ok" });
      expect(textOf(await two.click("alice", request, "Approve"))).toContain(
        "You have already approved this request",
      );
      expect(two.sims.get("lab-1")?.state.fileSystems.get("scratch")?.provisioned).toBe(5 * TIB);
      const done = await two.click("dave", request, "Approve");
      expect(textOf(done)).toContain("Requested by bob, approved by alice, dave.");
      expect(two.audits.at(-1)).toMatchObject({ decision: "approved", approvedBy: ["alice", "dave"] });
      expect(two.sims.get("lab-1")?.state.fileSystems.get("scratch")?.provisioned).toBe(4 * TIB);
    } finally {
      await two.close();
    }
  });

  test("deny: the action is refused outright and nothing is stored", async () => {
    const strict = await startHarness({ config: { destructive: { destroy: "deny" } } });
    try {
      expect(textOf(await strict.run("alice", "fs destroy logs"))).toContain(
        "destroy actions are turned off for this bot (destructive.destroy: deny). Nothing was changed.",
      );
      expect(strict.audits.at(-1)).toMatchObject({
        decision: "denied",
        errorCode: "ACTION_DENIED_BY_POLICY",
      });
      expect(await strict.store.listOpen()).toEqual([]);
      expect(strict.sims.get("lab-1")?.state.fileSystems.get("logs")?.destroyed).toBe(false);
    } finally {
      await strict.close();
    }
  });
});
