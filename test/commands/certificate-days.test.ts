/** certificate list: days left per certificate, marked under 30 and under 90, and filterable like any column. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const certs = h.sims.get("lab-1")?.state.generic.get("/certificates")?.items;
  const set = (name: string, days: number) => {
    const c = certs?.get(name);
    if (!c) throw new Error(`no certificate ${name}`);
    c["valid_to"] = String(h.clock.now + days * DAY + 3_600_000);
  };
  set("management", 65);
  set("ldap-ca", 12);
  set("fb-dr-01-ca", 1100);
});
afterAll(async () => h.close());

describe("certificate list", () => {
  test("a Days left column, marked under 30 and under 90, and lines naming both groups", async () => {
    const m = messagesOf(await h.run("carol", "certificate list --array lab-1"))[0];
    const table = m?.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.columns.map((c) => c.label)).toContain("Days left");
    const days = Object.fromEntries(table.rows.map((r) => [r["name"], r["valid_to:days"]]));
    expect(days).toEqual({ management: "65 ⚠ under 90", "ldap-ca": "12 ⚠ under 30", "fb-dr-01-ca": "1100" });
    const text = textOf(await h.run("carol", "certificate list --array lab-1"));
    expect(text).toContain("⚠ 1 certificate expired or expiring within 30 days: ldap-ca");
    expect(text).toContain("1 certificate expiring within 90 days: management");
  });

  test("--where on the computed column", async () => {
    const m = messagesOf(
      await h.run("carol", `certificate list --array lab-1 --where "days left < 90" --sort "days left"`),
    )[0];
    const table = m?.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.rows.map((r) => r["name"])).toEqual(["ldap-ca", "management"]);
  });

  test("certificate show says the days left too", async () => {
    expect(textOf(await h.run("carol", "certificate show ldap-ca --array lab-1"))).toMatch(
      /Days left:\s*12 ⚠ under 30/,
    );
  });
});
