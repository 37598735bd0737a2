/** Every decision leaves one audit record with every field filled in from the request that led to it. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { AuditRecord } from "../../src/core/audit/audit.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
const START = "2026-11-22T12:00:00.000Z";
const RESIZE = { name: "scratch", size: 4 * TIB };

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }] });
});
afterEach(async () => h.close());

/** The records written while `work` ran, and nothing else. */
async function recorded(work: () => Promise<unknown>): Promise<AuditRecord[]> {
  const from = h.audits.length;
  await work();
  return h.audits.slice(from);
}

const pendingIdOf = (effects: readonly Effect[]) => {
  const post = effects.find((e) => e.kind === "post");
  return post?.kind === "post" ? post.trackPending : undefined;
};

/** bob asks to shrink scratch on lab-2 below its usage (needs an approval) from channel C7. */
async function request(id: string): Promise<{ effects: Effect[]; pendingId: string }> {
  let effects: Effect[] = [];
  const [rec] = await recorded(async () => {
    effects = await h.run("bob", "fs resize scratch 4T --array lab-2", { channel: "C7", requestId: id });
  });
  const pendingId = pendingIdOf(effects) ?? "";
  expect(pendingId).not.toBe("");
  expect(rec).toEqual({
    id,
    at: START,
    userId: "bob",
    channelId: "C7",
    arrays: ["lab-2"],
    command: "fs.resize",
    args: RESIZE,
    role: "operator",
    text: "fs resize scratch 4T --array lab-2",
    decision: "pending",
    pendingId,
    sent: [expect.stringMatching(/^lab-2: PATCH \/file-systems\?\S*name=scratch \{"provisioned":/)],
    outcome: "ok",
    durationMs: 0,
    // The request's id is its trace (src/trace.ts): its clicks and execution carry it too.
    trace: id,
  });
  return { effects, pendingId };
}

/** The fields every click record on bob's request shares (`trace`: the request's id, when a click carries it). */
const click = (pendingId: string, trace?: string) => ({
  ...(trace === undefined ? {} : { trace }),
  id: expect.stringMatching(/^id-\d+$/),
  at: START,
  channelId: "C1",
  arrays: ["lab-2"],
  command: "fs.resize",
  args: RESIZE,
  pendingId,
  // Who asked and what the card planned, so the history of the object names them beside the decision.
  requester: { userId: "bob" },
  sent: [expect.stringMatching(/^lab-2: PATCH \/file-systems\?\S*name=scratch \{"provisioned":/)],
  durationMs: 0,
});

describe("audit records", () => {
  test("allowed: a lookup by a viewer", async () => {
    const recs = await recorded(() =>
      h.run("carol", "fs list --array lab-1", { channel: "C7", requestId: "r1" }),
    );
    expect(recs).toEqual([
      {
        id: "r1",
        trace: "r1",
        at: START,
        userId: "carol",
        channelId: "C7",
        arrays: ["lab-1"],
        command: "fs.list",
        args: {},
        role: "viewer",
        text: "fs list --array lab-1",
        decision: "allowed",
        outcome: "ok",
        durationMs: 0,
      },
    ]);
  });

  test("denied: a change asked for by someone below its role", async () => {
    const recs = await recorded(() =>
      h.run("carol", "fs resize scratch 4T --array lab-2", { channel: "C7", requestId: "r2" }),
    );
    expect(recs).toEqual([
      {
        id: "r2",
        trace: "r2",
        at: START,
        userId: "carol",
        channelId: "C7",
        arrays: ["lab-2"],
        command: "fs.resize",
        args: RESIZE,
        role: "viewer",
        text: "fs resize scratch 4T --array lab-2",
        decision: "denied",
        outcome: "error",
        errorCode: "FORBIDDEN",
        durationMs: 0,
      },
    ]);
  });

  test("someone with no role at all is recorded as none", async () => {
    const [rec] = await recorded(() => h.run("mallory", "fs list --array lab-1", { requestId: "r0" }));
    expect(rec).toMatchObject({
      userId: "mallory",
      role: "none",
      decision: "denied",
      errorCode: "FORBIDDEN",
    });
  });

  test("pending, then approved by another admin: 'executing' before the array call, then the outcome", async () => {
    const { effects, pendingId } = await request("r3");
    const recs = await recorded(() => h.click("alice", effects, "Approve"));
    expect(recs).toEqual([
      {
        id: `${pendingId}.executing`,
        at: START,
        userId: "alice",
        channelId: "C7",
        arrays: ["lab-2"],
        command: "fs.resize",
        args: RESIZE,
        decision: "executing",
        approvedBy: ["alice"],
        pendingId,
        outcome: "ok",
        durationMs: 0,
        trace: "r3",
      },
      {
        ...click(pendingId, "r3"),
        userId: "alice",
        role: "admin",
        decision: "approved",
        approvedBy: ["alice"],
        outcome: "ok",
      },
    ]);
  });

  test("pending, then vetoed", async () => {
    const { effects, pendingId } = await request("r4");
    const recs = await recorded(() => h.click("dave", effects, "Deny"));
    expect(recs).toEqual([
      { ...click(pendingId, "r4"), userId: "dave", role: "admin", decision: "vetoed", outcome: "ok" },
    ]);
  });

  test("pending, then expired by the sweep (no person's role is involved)", async () => {
    const { pendingId } = await request("r5");
    h.clock.advance(15 * 60_000);
    const recs = await recorded(() => h.pipeline.sweepExpired());
    // The sweep names the requester as the record's user; the history joins it to the request by its id.
    const { requester: _requester, sent: _sent, ...shared } = click(pendingId);
    expect(recs).toEqual([
      {
        ...shared,
        at: "2026-11-22T12:15:00.000Z",
        channelId: "C7",
        userId: "bob",
        decision: "expired",
        outcome: "ok",
      },
    ]);
  });

  test("pending, then voided because usage fell under the new size", async () => {
    const { effects, pendingId } = await request("r6");
    const scratch = h.sims.get("lab-2")?.state.fileSystems.get("scratch");
    if (scratch) scratch.space.virtual = Math.round(3.9 * TIB);
    let done: Effect[] = [];
    const recs = await recorded(async () => {
      done = await h.click("alice", effects, "Approve");
    });
    expect(textOf(done)).toContain("used over new size: yes → no");
    expect(recs).toEqual([
      {
        ...click(pendingId, "r6"),
        userId: "alice",
        role: "admin",
        decision: "voided",
        outcome: "error",
        errorCode: "STATE_CHANGED",
      },
    ]);
  });
});
