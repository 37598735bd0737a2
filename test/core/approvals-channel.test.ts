import { afterEach, describe, expect, test } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const posts = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.kind === "post" ? [{ channelId: e.channelId, track: e.trackPending }] : []));
const updatedRefs = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.kind === "update" ? [`${e.ref.channelId}/${e.ref.ts}`] : []));

async function withApprovers(extra: Record<string, unknown> = {}): Promise<Harness> {
  h = await startHarness({ config: { destructive: { approvals_channel: "CAPPROVE", ...extra } } });
  return h;
}

describe("the approvers channel", () => {
  test("an approval request is posted in the channel and in the approvers channel, both tracked", async () => {
    const a = await withApprovers();
    const request = await a.run("bob", "fs resize scratch 4T");
    const id = request[0]?.kind === "post" ? request[0].trackPending : undefined;
    expect(posts(request)).toEqual([
      { channelId: "C1", track: id },
      { channelId: "CAPPROVE", track: id },
    ]);
    expect(textOf(request)).toContain("in this channel and in <#CAPPROVE>");
    expect((await a.store.get(id ?? ""))?.messages).toEqual([
      { channelId: "C1", ts: "ts-1" },
      { channelId: "CAPPROVE", ts: "ts-2" },
    ]);
  });

  test("approved by…, then executed: every update reaches both copies", async () => {
    const a = await withApprovers({
      shrink_below_usage: { policy: "approve", approvers: 2, approver_role: "operator" },
    });

    const request = await a.run("bob", "fs resize scratch 4T");
    const first = await a.click("alice", request, "Approve");
    expect(updatedRefs(first)).toEqual(["C1/ts-1", "CAPPROVE/ts-2"]);
    expect(textOf(first)).toContain("approved so far: alice");
    const done = await a.click("dave", request, "Approve");
    expect(updatedRefs(done)).toEqual(["C1/ts-1", "CAPPROVE/ts-2"]);
    expect(textOf(done)).toContain("Requested by bob, approved by alice, dave.");
    expect(a.sims.get("lab-1")?.state.fileSystems.get("scratch")?.provisioned).toBe(4 * TIB);
  });

  test("vetoed, failed and expired requests update both copies too", async () => {
    const a = await withApprovers();
    const vetoed = await a.click("alice", await a.run("bob", "fs resize scratch 4T"), "Deny");
    expect(updatedRefs(vetoed)).toEqual(["C1/ts-1", "CAPPROVE/ts-2"]);
    expect(textOf(vetoed)).toContain("Denied by alice.");

    const doomed = await a.run("bob", "fs resize scratch 4T");
    a.sims.get("lab-1")?.control.failRequests({ method: "PATCH", status: 400, message: "quota busy" });
    const failed = await a.click("alice", doomed, "Approve");
    expect(updatedRefs(failed)).toEqual(["C1/ts-3", "CAPPROVE/ts-4"]);
    expect(textOf(failed)).toContain("Failed:");
    a.sims.get("lab-1")?.control.clearFaults();

    await a.run("bob", "fs resize scratch 4T");
    a.clock.advance(15 * 60_000);
    const swept = await a.pipeline.sweepExpired();
    expect(updatedRefs(swept)).toEqual(["C1/ts-5", "CAPPROVE/ts-6"]);
    expect(textOf(swept)).toContain("Expired: not approved in time.");
  });

  test("a request made in the approvers channel itself is posted once", async () => {
    const a = await withApprovers();
    const request = await a.run("bob", "fs resize scratch 4T", { channel: "CAPPROVE" });
    expect(posts(request).map((p) => p.channelId)).toEqual(["CAPPROVE"]);
    expect(textOf(request)).not.toContain("<#CAPPROVE>");
  });

  test("confirm-only requests stay with the requester", async () => {
    const a = await withApprovers();
    expect(posts(await a.run("bob", "fs destroy logs"))).toEqual([]);
  });

  test("the setting takes a channel ID, not a name", () => {
    const base = { arrays: [{ name: "a", address: "https://a.example", api_token_env: "T" }] };
    expect(
      validateConfig({ ...base, destructive: { approvals_channel: "C0APPROVE" } }, "x.yml").destructive,
    ).toMatchObject({ approvals_channel: "C0APPROVE" });
    expect(() =>
      validateConfig({ ...base, destructive: { approvals_channel: "#approvals" } }, "x.yml"),
    ).toThrow(/destructive\.approvals_channel: use the channel ID/);
  });
});
