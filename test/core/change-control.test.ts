/**
 * Change control (issue 45) through the real pipeline and the simulator over HTTPS: approval rules (who may
 * approve, how many, veto, reason and ticket), a freeze refusing changes and break-glass running one through with
 * its marks and review, and time-bound access requested, approved, used, expiring on the injected clock, surviving
 * a restart and revoked.
 */
import { afterEach, describe, expect, test } from "vitest";
import { configSchema } from "../../src/config/schema.js";
import { changeControlRecords } from "../../src/core/change-control/records.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { type Harness, type HarnessOptions, startHarness, textOf } from "./harness.js";

let h: Harness | undefined;
let h2: Harness | undefined;
afterEach(async () => {
  await h?.close();
  await h2?.close();
  h = h2 = undefined;
});

const HOUR = 3_600_000;
const ARRAYS: HarnessOptions["arrays"] = [{ name: "lab-1", tags: ["prod"] }, { name: "lab-2" }];
const GROUPS = { erin: ["SLEADS"], frank: ["SLEADS"], sam: ["SSEC"], olga: ["SONCALL"] };
const ACCESS = {
  admin: { users: ["alice"] },
  operator: { users: ["bob", "olga"] },
  viewer: { users: ["carol"] },
};

const RULE = {
  name: "prod-destroy",
  match: { classes: ["destroy"], arrays: "tag:prod" },
  approvals: 2,
  approvers: { groups: ["SLEADS"], users: ["dave"] },
  veto: { groups: ["SSEC"] },
  reason: "required" as const,
  ticket: "^(INC|CHG)-[0-9]+",
};

describe("approval rules", () => {
  const start = () =>
    startHarness({
      arrays: ARRAYS,
      groups: GROUPS,
      config: { access: ACCESS, approvals: { rules: [RULE] } },
    });

  test("a rule asks for a reason citing a ticket before any card is shown", async () => {
    h = await start();
    expect(textOf(await h.run("bob", "fs destroy scratch --array lab-1"))).toContain(
      "falls under the approval rule prod-destroy, which asks for a reason citing a ticket",
    );
    expect(textOf(await h.run("bob", 'fs destroy scratch --array lab-1 --reason "tidy up"'))).toContain(
      "asks the reason to cite a ticket matching",
    );
    expect(await h.store.listOpen()).toEqual([]);
    expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(false);
  });

  test("only the rule's approvers count, two distinct ones, never the requester; then it runs", async () => {
    h = await start();
    const card = await h.run("bob", 'fs destroy scratch --array lab-1 --reason "INC-42 decommission"');
    const shown = textOf(card);
    expect(shown).toContain("Approval rule prod-destroy: needs 2 of");
    expect(shown).toContain("Reason: INC-42 decommission");
    // An admin outside the rule cannot approve; nor can the requester.
    expect(textOf(await h.click("alice", card, "Approve"))).toContain(
      "takes approvals only from the people it names",
    );
    expect(textOf(await h.click("bob", card, "Approve"))).toContain("needs approval from someone else");
    // A group member with no role at all is an approver because the rule says so.
    expect(textOf(await h.click("erin", card, "Approve"))).toContain("1 of 2 so far");
    expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(false);
    expect(textOf(await h.click("erin", card, "Approve"))).toContain("already approved");
    await h.click("dave", card, "Approve");
    expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(true);
    const asked = h.audits.find((a) => a.command === "fs.destroy" && a.decision === "pending");
    expect(asked).toMatchObject({ rule: "prod-destroy", reason: "INC-42 decommission" });
  });

  test("a veto member's Deny ends it whatever their role", async () => {
    h = await start();
    const card = await h.run("bob", 'fs destroy scratch --array lab-1 --reason "CHG-7 retire"');
    expect(textOf(await h.click("sam", card, "Deny"))).toContain("Denied by sam");
    expect((await h.store.listOpen()).length).toBe(0);
    expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.destroyed).toBe(false);
  });

  test("the same change on an array the rule does not cover follows the class default", async () => {
    h = await start();
    const out = textOf(await h.run("bob", "fs destroy scratch --array lab-2"));
    expect(out).toContain("Confirm");
    expect(out).not.toContain("prod-destroy");
  });

  test("a rule no one but the requester could satisfy is a start-up error", () => {
    const bad = configSchema.safeParse({
      arrays: [{ name: "a", address: "https://127.0.0.1:1", api_token_env: "T" }],
      approvals: { rules: [{ name: "solo", approvals: 2, approvers: { users: ["U0DAVE"] } }] },
    });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("needs 2 approvals but names only 1 approver");
  });
});

describe("freeze windows and break-glass", () => {
  const start = (now: number) =>
    startHarness({
      arrays: ARRAYS,
      groups: GROUPS,
      config: {
        access: ACCESS,
        time_zone: "UTC",
        freeze: [
          {
            name: "year-end",
            from: new Date(now - 24 * HOUR).toISOString(),
            to: new Date(now + 10 * 24 * HOUR).toISOString(),
            arrays: "tag:prod",
          },
        ],
        break_glass: { groups: ["SONCALL"] },
      },
    });

  test("a change in a freeze is refused with the window and its end; elsewhere it runs", async () => {
    h = await start(Date.now());
    h.clock.now = Date.now();
    const out = textOf(await h.run("bob", "fs create frozen 1T --nfs --array lab-1"));
    expect(out).toContain("the year-end freeze lasts until");
    expect(h.sims.get("lab-1")?.state.fileSystems.has("frozen")).toBe(false);
    expect(textOf(await h.run("bob", "fs create thawed 1T --nfs --array lab-2"))).toContain("Created");
    expect(
      textOf(await h.run("bob", 'fs create x 1T --nfs --array lab-2 --break-glass "INC-1 x"')),
    ).toContain("no glass to break");
  });

  test("break-glass: refused to others; for the on-call lead it needs its confirmation, is marked, and waits for review", async () => {
    h = await start(Date.now());
    h.clock.now = Date.now();
    expect(
      textOf(await h.run("bob", 'fs create bg 1T --nfs --array lab-1 --break-glass "INC-4711 array full"')),
    ).toContain("Only the people break_glass names");
    const card = await h.run(
      "olga",
      'fs create bg 1T --nfs --array lab-1 --break-glass "INC-4711 array full"',
    );
    expect(textOf(card)).toContain("Break-glass");
    expect(textOf(card)).toContain("Reason: INC-4711 array full");
    await h.click("olga", card, "Confirm");
    expect(h.sims.get("lab-1")?.state.fileSystems.has("bg")).toBe(true);
    const rec = h.audits.find((a) => a.command === "fs.create" && a.decision === "pending");
    expect(rec?.breakGlass).toEqual({ freeze: "year-end", reason: "INC-4711 array full" });
    // Admins see it until one marks it reviewed; others may not look.
    expect(textOf(await h.run("bob", "audit break-glass"))).toContain("needs the admin role");
    const listed = textOf(await h.run("alice", "audit break-glass"));
    expect(listed).toContain("1 break-glass change to review");
    expect(listed).toContain("INC-4711 array full");
    const id = rec?.id ?? "";
    expect(textOf(await h.run("alice", `audit break-glass review ${id}`))).toContain("Marked reviewed");
    expect(textOf(await h.run("alice", "audit break-glass"))).toContain("No break-glass change waits");
  });

  test("a button is no way around a freeze: a Recover offered before the freeze is refused during it", async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    h = await startHarness({
      arrays: ARRAYS,
      config: {
        access: ACCESS,
        freeze: [
          {
            name: "weekend",
            from: new Date(now + HOUR).toISOString(),
            to: new Date(now + 48 * HOUR).toISOString(),
          },
        ],
      },
    });
    const card = await h.run("bob", "fs destroy scratch --array lab-2");
    const done = await h.click("bob", card, "Confirm");
    expect(h.sims.get("lab-2")?.state.fileSystems.get("scratch")?.destroyed).toBe(true);
    h.clock.advance(2 * HOUR);
    expect(textOf(await h.click("bob", done, "Recover"))).toContain("the weekend freeze lasts until");
    expect(h.sims.get("lab-2")?.state.fileSystems.get("scratch")?.destroyed).toBe(true);
  });

  test("an assistant can never break glass", async () => {
    h = await startHarness({
      arrays: ARRAYS,
      config: {
        access: ACCESS,
        freeze: [{ name: "all-year", from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" }],
        break_glass: { users: ["dave"] },
        destructive: { approvals_channel: "CAPPROVE" },
        mcp: { clients: [{ name: "ops", token_env: "X", role: "operator" }] },
      },
    });
    expect(
      textOf(await h.run("mcp:ops", 'fs create ai 1T --nfs --array lab-1 --break-glass "INC-1 please"')),
    ).toContain("an assistant or a workflow cannot");
  });
});

describe("time-bound access", () => {
  const config = {
    access: ACCESS,
    access_requests: {
      rules: [
        { roles: ["operator" as const], arrays: "tag:prod", max: "4h", approvers: { users: ["alice"] } },
      ],
    },
  };

  test("requested, approved by the rule's approver alone, used, named in audit, and gone when it expires", async () => {
    h = await startHarness({ arrays: ARRAYS, config });
    expect(textOf(await h.run("carol", "fs create early 1T --nfs --array lab-1"))).toContain(
      "needs the operator role",
    );
    expect(
      textOf(await h.run("carol", 'access request operator --array lab-1 --for 5h --reason "INC-9 disk"')),
    ).toContain("at most 4h");
    const card = await h.run("carol", 'access request operator --array lab-1 --for 2h --reason "INC-9 disk"');
    expect(textOf(card)).toContain("Access request");
    expect(textOf(await h.click("carol", card, "Approve"))).toContain("needs approval from someone else");
    expect(textOf(await h.click("bob", card, "Approve"))).toContain(
      "takes approvals only from the people it names",
    );
    expect(textOf(await h.click("alice", card, "Approve"))).toContain(
      "Granted: carol holds operator on lab-1",
    );
    expect(textOf(await h.run("carol", "access list"))).toContain("INC-9 disk");
    expect(textOf(await h.run("carol", "fs create granted 1T --nfs --array lab-1"))).toContain("Created");
    const used = h.audits.find((a) => a.command === "fs.create" && a.outcome === "ok");
    expect(used?.grant).toBeDefined();
    // Not beyond the arrays it names.
    expect(textOf(await h.run("carol", "fs create other 1T --nfs --array lab-2"))).toContain(
      "needs the operator role",
    );
    h.clock.advance(2 * HOUR + 1);
    expect(textOf(await h.run("carol", "fs create late 1T --nfs --array lab-1"))).toContain(
      "needs the operator role",
    );
  });

  test("a grant survives a restart (the store holds it) and an admin revokes it", async () => {
    // The store reads the harnesses' clock (both start at the same fixed time), as a real one reads the wall clock.
    const records = changeControlRecords(createMemoryStore({ now: () => Date.UTC(2026, 10, 22, 12, 0, 0) }));
    h = await startHarness({ arrays: ARRAYS, config, changeControl: records });
    const card = await h.run("carol", 'access request operator --array lab-1 --for 1h --reason "INC-10 fix"');
    await h.click("alice", card, "Approve");
    await h.close();
    h = undefined;
    h2 = await startHarness({ arrays: ARRAYS, config, changeControl: records });
    expect(textOf(await h2.run("carol", "fs create kept 1T --nfs --array lab-1"))).toContain("Created");
    expect(textOf(await h2.run("bob", "access revoke carol"))).toContain("needs an admin");
    // `--array` ends only the grants covering that array (lab-2 carries no prod tag; lab-1 does).
    expect(textOf(await h2.run("alice", "access revoke carol --array lab-2"))).toContain(
      "holds no access grant",
    );
    expect(textOf(await h2.run("alice", "access revoke carol --array lab-1"))).toContain(
      "Ended 1 grant of carol",
    );
    expect(textOf(await h2.run("carol", "fs create gone 1T --nfs --array lab-1"))).toContain(
      "needs the operator role",
    );
  });

  test("an assistant cannot ask for access", async () => {
    h = await startHarness({
      arrays: ARRAYS,
      config: { ...config, mcp: { clients: [{ name: "ops", token_env: "X", role: "viewer" }] } },
    });
    expect(
      textOf(await h.run("mcp:ops", 'access request operator --array lab-1 --for 1h --reason "INC-1 ai"')),
    ).toContain("an assistant or a workflow cannot");
  });
});
