/** `/array api`: checked against the endpoint table and the array's version before anything is sent. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire, SIM_VERSION } from "../helpers/wire.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-old", versions: "1.0-1.8" }] });
});
afterAll(async () => h.close());

const sent = (array: string) =>
  Object.entries(h.sims.get(array)?.control.stats().requests ?? {})
    .filter(([k]) => /^\w+ \/api\/\d/.test(k))
    .map(([k]) => k);

beforeEach(() => {
  for (const s of h.sims.values()) s.control.resetStats();
});

describe("api GET", () => {
  test("a viewer reads /blades as a table", async () => {
    const effects = await h.run("carol", "api GET /blades --array lab-1");
    const table = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
    expect(table?.type === "table" && table.rows.map((r) => r["name"])).toContain("CH1.FB1");
    expect(sent("lab-1")).toEqual([onWire("GET /api/1.12/blades")]);
  });

  test("answers that are not uniform come back as JSON in a code block", async () => {
    const m = messagesOf(await h.run("carol", "api GET /support --array lab-1"))[0];
    const code = m?.blocks.find((b) => b.type === "code");
    expect(code?.type === "code" && JSON.parse(code.text)[0].phonehome_enabled).toBe(true);
  });

  test("an unknown path names the nearest ones and sends nothing", async () => {
    const text = textOf(await h.run("carol", "api GET /blade --array lab-1"));
    expect(text).toContain("/blade is not a REST endpoint. Nearest: `/blades`");
    expect(sent("lab-1")).toEqual([]);
  });

  test("a parameter the endpoint lacks, and one the version lacks, are refused before sending", async () => {
    expect(textOf(await h.run("carol", "api GET /blades?colour=red --array lab-1"))).toContain(
      "GET /blades takes no parameter `colour`",
    );
    // 1.12 took total_only from file systems; 2.x has it again (test/flashblade/totals-2x.test.ts).
    if (SIM_VERSION.startsWith("1."))
      expect(textOf(await h.run("carol", "api GET /file-systems?total_only=true --array lab-1"))).toContain(
        `\`total_only\` is not in REST ${SIM_VERSION} for /file-systems`,
      );
    expect(sent("lab-1")).toEqual([]);
  });

  test("prototype names as parameters are unknown parameters, never prototype properties", async () => {
    for (const k of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const text = textOf(await h.run("carol", `api GET /blades?${k}=1 --array lab-1`));
      expect(text, k).toContain(`GET /blades takes no parameter \`${k}\``);
    }
    expect(sent("lab-1")).toEqual([]);
    // The simulated array refuses a prototype name as a protocol as a real one would, rather than computing NaN.
    const perf = textOf(
      await h.run("carol", "api GET /arrays/performance?protocol=constructor --array lab-1"),
    );
    expect(perf).toContain("'protocol' must be one of all, nfs, smb, http, s3");
  });

  test("a method the path does not take says which it does", async () => {
    expect(textOf(await h.run("alice", "api POST /blades --array lab-1"))).toContain(
      "POST is not allowed on /blades; it takes GET.",
    );
  });

  test("an endpoint newer than the array is refused with both versions, nothing sent", async () => {
    const text = textOf(await h.run("carol", "api GET /audits --array lab-old"));
    expect(text).toContain("GET /audits needs REST 1.9, lab-old runs 1.8. Nothing was sent.");
    expect(sent("lab-old")).toEqual([]);
  });

  test("fan-out: one table with an Array column and a line per array that cannot", async () => {
    const text = textOf(await h.run("carol", "api GET /audits --array all"));
    expect(text).toContain("lab-old failed: GET /audits needs REST 1.9, lab-old runs 1.8");
  });
});

describe("api writes", () => {
  test("a viewer's PATCH is refused", async () => {
    const text = textOf(
      await h.run("carol", `api PATCH /smtp '{"relay_host":"x.example.com"}' --array lab-1`),
    );
    expect(text).toMatch(/needs the operator role/);
    // An operator may send a raw change only where the policy table lets an operator: /smtp needs admin.
    const op = textOf(await h.run("bob", `api PATCH /smtp '{"relay_host":"x.example.com"}' --array lab-1`));
    expect(op).toMatch(/PATCH \/smtp needs the admin role/);
    expect(sent("lab-1")).toEqual([]);
  });

  test("an admin's DELETE waits for approval, shows the exact request, then runs once", async () => {
    const watchers = () => h.sims.get("lab-1")?.state.alertWatchers;
    expect(watchers()?.has("storage-team@example.com")).toBe(true);
    const asked = await h.run(
      "alice",
      "api DELETE /alert-watchers?names=storage-team@example.com --array lab-1",
    );
    expect(textOf(asked)).toContain(
      onWire("DELETE /api/1.12/alert-watchers?names=storage-team%40example.com"),
    );
    expect(sent("lab-1").filter((k) => k.startsWith("DELETE"))).toEqual([]);
    const done = await h.click("dave", asked, "Approve");
    expect(textOf(done)).toContain("DELETE /alert-watchers");
    expect(watchers()?.has("storage-team@example.com")).toBe(false);
    expect(h.sims.get("lab-1")?.control.stats().requests[onWire("DELETE /api/1.12/alert-watchers")]).toBe(1);
    expect(textOf(await h.click("dave", asked, "Approve"))).not.toContain("Deleted");
    expect(h.sims.get("lab-1")?.control.stats().requests[onWire("DELETE /api/1.12/alert-watchers")]).toBe(1);
  });

  test("secrets are refused in a body: they would stay in Slack's history", async () => {
    const text = textOf(
      await h.run("alice", `api PATCH /admins?names=pureuser '{"password":"hunter2"}' --array lab-1`),
    );
    expect(text).toContain("`password` is a secret");
    expect(text).not.toContain("hunter2");
    // The refused line is audited, without the secret.
    const record = h.audits.at(-1);
    expect(record?.text).toContain('"password":"[redacted]"');
    expect(JSON.stringify(record)).not.toContain("hunter2");
  });

  test("--dry-run shows the request and sends nothing", async () => {
    const text = textOf(
      await h.run("alice", `api PATCH /smtp '{"relay_host":"x.example.com"}' --array lab-1 --dry-run`),
    );
    expect(text).toContain(onWire(`PATCH /api/1.12/smtp {"relay_host":"x.example.com"}`));
    expect(text).toContain("raw api action: it would need 1 approval");
    expect(sent("lab-1")).toEqual([]);
  });
});
