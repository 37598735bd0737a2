/**
 * Approvals hold at the moment the change runs, not only when each was clicked: an approver demoted meanwhile
 * no longer counts, the offer button acts on offer records only, and the one approver a request needs clicking
 * twice at once is told it is being carried out.
 */
import { afterEach, describe, expect, test } from "vitest";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness | undefined;
afterEach(async () => h?.close());

function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((r) => {
    open = r;
  });
  return { wait, open };
}

const builds = (harness: Harness) => harness.sims.get("lab-1")?.state.fileSystems.get("builds");

describe("earlier approvals are rechecked when the last one runs the request", () => {
  test("an approver removed from the mapping meanwhile no longer counts, and the card says so", async () => {
    // erin is an operator through the S-storage group (DEMO_ACCESS).
    const groups: Record<string, string[]> = { erin: ["S-storage"] };
    h = await startHarness({
      groups,
      config: {
        destructive: { shrink_below_usage: { policy: "approve", approvers: 2, approver_role: "operator" } },
      },
    });
    const request = await h.run("bob", "fs resize builds 9T");
    expect(textOf(await h.click("erin", request, "Approve"))).toContain("approved so far: erin");
    groups["erin"] = [];

    const last = await h.click("dave", request, "Approve");
    expect(textOf(last)).toContain("the approval of erin no longer counts (no longer operator on lab-1)");
    expect(textOf(last)).toContain("it needs 1 more");
    expect(builds(h)?.provisioned).toBe(10 * TIB);
    const rec = (await h.store.listOpen())[0];
    expect(rec?.status).toBe("pending");
    expect(rec?.approvals.map((a) => a.userId)).toEqual(["dave"]);

    // Someone who still holds the role completes it.
    expect(textOf(await h.click("alice", request, "Approve"))).toContain("Resized *builds*");
    expect(builds(h)?.provisioned).toBe(9 * TIB);
    expect(h.audits.at(-1)).toMatchObject({ decision: "approved", approvedBy: ["dave", "alice"] });
  });
});

describe("the offer button acts on offer records only", () => {
  test("an offer click naming a gated request's id is refused and leaves the request as it was", async () => {
    h = await startHarness({ groups: { erin: ["S-storage"] } });
    const request = await h.run("bob", "fs destroy logs");
    expect(textOf(request)).toContain("Confirm: destroy file system logs");
    const pending = (await h.store.listOpen())[0];
    if (!pending) throw new Error("no pending request");

    // erin crafts the payload of a Recover-style button around bob's request.
    const crafted = await h.pipeline.handleClick({
      actionId: ACTIONS.offer,
      value: pending.id,
      actor: { kind: "console" as const, userId: "erin", channelId: "C1" },
    });
    expect(textOf(crafted)).toContain("This button is not one the bot offers; nothing was done.");
    expect(crafted.some((e) => e.kind === "post" || e.kind === "update")).toBe(false);
    expect((await h.store.get(pending.id))?.status).toBe("pending");
    expect(h.sims.get("lab-1")?.state.fileSystems.get("logs")?.destroyed).toBe(false);
    expect(h.audits.at(-1)).toMatchObject({ userId: "erin", errorCode: "NOT_AN_OFFER" });

    // bob's own Confirm still works.
    expect(textOf(await h.click("bob", request, "Confirm"))).toContain("Destroyed *logs*");
  });
});

describe("the one approver a request needs, clicking twice at once", () => {
  test("the second click is answered 'being carried out', not 'needs someone else too'", async () => {
    const held = gate();
    const reached = gate();
    let hold = false;
    h = await startHarness({
      identity: {
        groupsOf: async (u) => {
          // While armed, the requester's role check at execution waits: the first click is carrying it out.
          if (hold && u === "bob") {
            hold = false;
            reached.open();
            await held.wait;
          }
          return [];
        },
        isRestricted: async () => false,
      },
    });
    const harness = h;
    const request = await harness.run("bob", "fs resize builds 9T");
    expect(textOf(request)).toContain("Needs 1 approval");
    hold = true;

    const first = harness.click("alice", request, "Approve");
    await reached.wait;
    const second = await harness.click("alice", request, "Approve");
    expect(textOf(second)).toContain("being carried out right now");
    expect(textOf(second)).not.toContain("needs someone else too");
    held.open();
    expect(textOf(await first)).toContain("Resized *builds*");
    expect(builds(harness)?.provisioned).toBe(9 * TIB);
  });
});
