/**
 * What is sent is what the card showed: a pending request keeps its planned requests in canonical form, and at
 * the last approval the recomputed plan must equal them request by request, whatever the state fingerprint
 * says. An impact that plans nothing sends nothing and says so.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness | undefined;
afterEach(async () => h?.close());

const patches = (harness: Harness) =>
  harness.sims.get("lab-1")?.control.stats().requests["PATCH /api/1.12/file-systems"] ?? 0;

describe("the planned requests are part of what an approval approves", () => {
  test("the pending record keeps the plan in canonical form", async () => {
    h = await startHarness();
    await h.run("bob", "fs resize builds 9T");
    const rec = (await h.store.listOpen())[0];
    expect(rec?.planned).toEqual([
      `lab-1: PATCH /file-systems?ignore_usage=true&name=builds {"provisioned":${9 * TIB}}`,
    ]);
  });

  test("a plan that differs at recompute while the state is equal voids the request, naming the difference", async () => {
    h = await startHarness();
    const harness = h;
    const request = await harness.run("bob", "fs resize builds 9T");
    const rec = (await harness.store.listOpen())[0];
    if (!rec?.planned?.[0]) throw new Error("no plan stored");
    // The card was shown for another body (a plan made by another replica, an older version of the bot…);
    // the state the impact reads is the same.
    const shown = rec.planned[0].replace(String(9 * TIB), String(8 * TIB));
    await harness.store.update(rec.id, { planned: [shown] });
    const before = patches(harness);

    const click = await harness.click("dave", request, "Approve");
    const text = textOf(click).replaceAll("&amp;", "&"); // the card escapes its markup
    expect(text).toContain("Not run: the requests it would send now differ from those shown here.");
    expect(text).toContain(
      `request 1: ${shown} → lab-1: PATCH /file-systems?ignore_usage=true&name=builds {"provisioned":${9 * TIB}}`,
    );
    expect(patches(harness)).toBe(before);
    expect(harness.sims.get("lab-1")?.state.fileSystems.get("builds")?.provisioned).toBe(10 * TIB);
    expect((await harness.store.get(rec.id))?.status).toBe("voided");
    expect(harness.audits.at(-1)).toMatchObject({ decision: "voided", errorCode: "PLAN_CHANGED" });
  });

  test("a secret asked for a change is a placeholder in the stored plan, never its value", async () => {
    h = await startHarness();
    const card = await h.run("alice", "directory-service update management --bind-password");
    expect(textOf(card)).toContain('"bind_password":"(typed in a private dialog)"');
    const rec = (await h.store.listOpen())[0];
    expect(rec?.planned?.[0]).toContain('"bind_password":"(typed in a private dialog)"');
  });
});
