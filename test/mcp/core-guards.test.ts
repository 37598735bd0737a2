/**
 * The guard rails for assistants live in src/core, whatever face an assistant comes through: its role comes only
 * from its mcp client entry, its changes always wait for a person's Approve, and it can decide nothing.
 */
import { afterEach, describe, expect, test } from "vitest";
import { DEMO_ACCESS, type Harness, startHarness, textOf } from "../core/harness.js";
import { MCP } from "./helpers.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const start = async (destructive: Record<string, unknown> = {}) => {
  h = await startHarness({
    config: {
      mcp: MCP,
      access: { ...DEMO_ACCESS, default_role: "viewer" as const },
      destructive: { approvals_channel: "CAPPROVE", ...destructive },
    },
  });
  return h;
};

describe("assistants in the core", () => {
  test("a change a person would run at once waits for another person's Approve when an assistant asks", async () => {
    const a = await start();
    const out = await a.run("mcp:ops", "fs resize projects 900T");
    const id = out.flatMap((e) => (e.kind === "post" && e.trackPending ? [e.trackPending] : []))[0];
    const rec = await a.store.get(id ?? "");
    expect(rec?.policy).toBe("approve");
    expect(rec?.approvalsRequired).toBe(1);
  });

  test("a confirmation-class change proposed by an assistant needs a person's Approve, not its own Confirm", async () => {
    const a = await start();
    const out = await a.run("mcp:ops", "fs destroy scratch");
    expect(textOf(out)).not.toContain("Only assistant");
    const id = out.flatMap((e) => (e.kind === "post" && e.trackPending ? [e.trackPending] : []))[0];
    expect((await a.store.get(id ?? ""))?.policy).toBe("approve");
    const refused = await a.click("mcp:ops", out, "Approve");
    expect(textOf(refused)).toContain("An assistant cannot confirm, approve, deny");
    expect(a.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(false);
    await a.click("bob", out, "Approve");
    expect(a.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(true);
  });

  test("a class set to deny is denied to assistants too", async () => {
    const a = await start({ destroy: "deny" });
    const out = await a.run("mcp:ops", "fs destroy scratch");
    expect(textOf(out)).toContain("turned off");
  });

  test("a class in mcp.forbid_classes cannot even be proposed by an assistant; a person still can", async () => {
    h = await startHarness({
      config: {
        mcp: { ...MCP, forbid_classes: ["destroy"] },
        destructive: { approvals_channel: "CAPPROVE" },
      },
    });
    expect(textOf(await h.run("mcp:ops", "fs destroy scratch"))).toContain(
      "Assistants may not propose destroy",
    );
    expect(await h.store.listOpen()).toEqual([]);
    expect(textOf(await h.run("bob", "fs destroy scratch"))).toContain("Confirm");
  });

  test("an assistant's role is its client entry's: never default_role, never a person's mapping", async () => {
    const a = await start();
    // default_role viewer lets any person look, but an unknown assistant principal has no role.
    expect(textOf(await a.run("mcp:nobody", "fs list"))).toContain("no role");
    expect(textOf(await a.run("mcp:reader", "fs list"))).toContain("projects");
    expect(textOf(await a.run("mcp:reader", "fs resize projects 900T"))).toContain("needs the operator role");
  });

  test("a click by an assistant principal is refused before anything is looked up", async () => {
    const a = await start();
    const out = await a.run("bob", "fs destroy scratch");
    const refused = await a.click("mcp:ops", out, "Confirm");
    expect(textOf(refused)).toContain("An assistant cannot");
    expect(a.audits.at(-1)?.decision).toBe("denied");
    expect(a.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(false);
  });
});

describe("what request_status may keep", () => {
  test("a result holding a secret (a new access key) is not kept for later status questions", async () => {
    const a = await start();
    const out = await a.run("mcp:ops", "access-key create analytics/etl");
    const id = out.flatMap((e) => (e.kind === "post" && e.trackPending ? [e.trackPending] : []))[0] ?? "";
    const done = await a.click("bob", out, "Approve");
    expect(done.length).toBeGreaterThan(0);
    // Approved by a person for an assistant: the card in the channel never shows the secret.
    expect(
      done.some((e) => (e.kind === "update" || e.kind === "post" || e.kind === "reply") && e.message.secret),
    ).toBe(false);
    expect(textOf(done)).toContain("Its answer held a secret");
    const rec = await a.store.get(id);
    expect(rec?.status).toBe("executed");
    expect(rec?.result).toBe("The answer held a secret, shown once and not kept.");
  });
});
