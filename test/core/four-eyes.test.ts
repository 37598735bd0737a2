/**
 * "Destructive changes need the right people and nothing happens twice": one person is never two approvals, and
 * a button clicked after the fact changes nothing and says what happened.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness | undefined;
afterEach(async () => h?.close());

/** A promise and the function that settles it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((r) => {
    open = r;
  });
  return { wait, open };
}

describe("one person is never two approvals", () => {
  test("a double click while the first identity lookup is slow records alice once and runs nothing", async () => {
    const held = gate();
    let aliceLookups = 0;
    h = await startHarness({
      config: {
        destructive: { shrink_below_usage: { policy: "approve", approvers: 2, approver_role: "operator" } },
      },
      identity: {
        groupsOf: async (u) => {
          // Hold alice's first lookup (made by her first click) until her second click has finished.
          if (u === "alice" && ++aliceLookups === 1) await held.wait;
          return [];
        },
        isRestricted: async () => false,
      },
    });
    const harness = h;
    const fs = () => harness.sims.get("lab-1")?.state.fileSystems.get("builds");
    const request = await harness.run("bob", "fs resize builds 9T");
    expect(textOf(request)).toContain("Needs 2 approvals");
    aliceLookups = 0;

    const first = harness.click("alice", request, "Approve");
    // Let the first click reach its held identity lookup before the second starts.
    while (aliceLookups === 0) await new Promise<void>((r) => setImmediate(r));
    const second = await harness.click("alice", request, "Approve");
    expect(textOf(second)).toContain("approved so far: alice");
    held.open();
    const late = await first;

    expect(textOf(late)).toContain("You have already approved this request; it needs someone else too.");
    expect(fs()?.provisioned).toBe(10 * TIB);
    const rec = (await harness.store.listOpen())[0];
    expect(rec?.status).toBe("pending");
    expect(rec?.approvals.map((a) => a.userId)).toEqual(["alice"]);

    // A second person completes it, and the audit names two different people.
    expect(textOf(await harness.click("dave", request, "Approve"))).toContain("Resized *builds*");
    expect(fs()?.provisioned).toBe(9 * TIB);
    expect(harness.audits.at(-1)).toMatchObject({ decision: "approved", approvedBy: ["alice", "dave"] });
  });
});

describe("buttons after the fact", () => {
  test("a click after the change ran says who carried it out and when, privately, and changes nothing", async () => {
    h = await startHarness();
    const harness = h;
    const request = await harness.run("bob", "fs resize builds 9T");
    harness.clock.advance(2 * 60_000); // 12:02 UTC
    await harness.click("alice", request, "Approve");
    const patches = () =>
      harness.sims.get("lab-1")?.control.stats().requests["PATCH /api/1.12/file-systems"] ?? 0;
    const before = patches();

    const late = await harness.click("dave", request, "Approve");
    expect(late.map((e) => e.kind)).toEqual(["reply"]);
    expect(late[0]?.kind === "reply" && late[0].message.visibility).toBe("ephemeral");
    expect(textOf(late)).toContain(
      "This request is already carried out by @alice at 2026-11-22 12:02 UTC; nothing more was done.",
    );
    expect(patches()).toBe(before);
    expect(textOf(await harness.click("bob", request, "Deny"))).toContain("already carried out by @alice");
  });

  test("eradicate after the file system was recovered: the dialog's check answers 'not destroyed any more' and closes it", async () => {
    h = await startHarness();
    const harness = h;
    const destroyed = await harness.click("bob", await harness.run("bob", "fs destroy logs"), "Confirm");
    const erase = await harness.run("alice", "fs eradicate logs");
    expect(textOf(erase)).toContain("Approval needed: eradicate file system logs");
    await harness.click("bob", destroyed, "Recover logs");
    expect(harness.sims.get("lab-1")?.state.fileSystems.get("logs")?.destroyed).toBe(false);

    // No typed text: the "type logs to go ahead" dialog opens, and the check run meanwhile voids the request.
    const [dialog, ...rest] = await harness.click("dave", erase, "Approve");
    expect(rest).toEqual([]);
    if (dialog?.kind !== "prompt" || dialog.recheck === undefined)
      throw new Error("no dialog with its check");
    const found = await dialog.recheck;
    expect(textOf(found)).toContain("logs is not destroyed any more");
    expect(harness.sims.get("lab-1")?.state.fileSystems.get("logs")).toBeDefined();
    expect(harness.audits.at(-1)).toMatchObject({ decision: "voided", errorCode: "PRECONDITION_CHANGED" });
    // The request is closed: a later click is told so.
    expect(textOf(await harness.click("dave", erase, "Approve", "logs"))).toContain("This request is void");
  });
});
