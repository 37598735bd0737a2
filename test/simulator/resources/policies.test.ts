import { describe, expect, it } from "vitest";
import { runPolicy } from "../../../src/simulator/state-control.js";
import { call, DAY, expect400, HOUR, items, list, sim } from "./helpers.js";

const DAILY = { every: DAY, keep_for: 7 * DAY, at: 2 * HOUR, time_zone: "UTC" };
const WEEKLY = { every: 7 * DAY, keep_for: 28 * DAY, at: 3 * HOUR, time_zone: "UTC" };

describe("/policies", () => {
  it("creates policies with validated rules and refuses duplicates", () => {
    const { state } = sim();
    const [p] = items(
      call(state, "POST", "/policies", {
        query: "names=every-6h",
        body: { rules: [{ every: 6 * HOUR, keep_for: 2 * DAY }] },
      }),
    );
    expect(p).toMatchObject({
      name: "every-6h",
      enabled: true,
      rules: [{ every: 6 * HOUR, keep_for: 2 * DAY, at: null, time_zone: null }],
      is_local: true,
    });
    expect400(state, "POST", "/policies", { query: "names=daily" }, /Policy 'daily' already exists/);
    expect400(
      state,
      "POST",
      "/policies",
      { query: "names=p2", body: { rules: [{ every: DAY, keep_for: HOUR }] } },
      /keep_for .* must be at least every/,
    );
    expect400(
      state,
      "POST",
      "/policies",
      { query: "names=p2", body: { rules: [{ every: 1000, keep_for: DAY }] } },
      /'rules.0.every'.*at least 60000/,
    );
    expect400(
      state,
      "POST",
      "/policies",
      { query: "names=p2", body: { rules: [{ every: HOUR, keep_for: DAY, at: 0 }] } },
      /at can only be set when every is a whole number of days/,
    );
  });

  it("refuses removing a rule whose snapshots exist unless destroy_snapshots=true (1.11+), then destroys them", () => {
    const { state } = sim();
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=daily", body: { remove_rules: [WEEKLY] } },
      /would leave 9 snapshot\(s\) it made without a rule; set destroy_snapshots=true/,
    );
    expect(list(state, "/policies", "names=daily").items[0]?.["rules"]).toHaveLength(2);
    const [p] = items(
      call(state, "PATCH", "/policies", {
        query: "names=daily&destroy_snapshots=true",
        body: { remove_rules: [WEEKLY] },
      }),
    );
    expect(p?.["rules"]).toEqual([DAILY]);
    const weekly = list(state, "/file-system-snapshots", "filter=contains(suffix,'weekly')").items;
    expect(weekly).toHaveLength(9);
    expect(weekly.every((s) => s["destroyed"] === true)).toBe(true);
    // The daily rule's snapshots are untouched.
    expect(
      list(state, "/file-system-snapshots", "filter=contains(suffix,'daily') and destroyed").items,
    ).toEqual([]);
  });

  it("treats a 'rules' replacement that drops a rule like remove_rules", () => {
    const { state } = sim();
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=daily", body: { rules: [WEEKLY] } },
      /would leave 21 snapshot/,
    );
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=daily", body: { rules: [DAILY], add_rules: [WEEKLY] } },
      /cannot be combined/,
    );
    call(state, "PATCH", "/policies", {
      query: "names=daily",
      body: { rules: [DAILY, WEEKLY], enabled: false },
    });
    expect(list(state, "/policies", "names=daily").items[0]).toMatchObject({
      enabled: false,
      rules: [DAILY, WEEKLY],
    });
  });

  it("allows removing an unused rule, and a rule with snapshots before 1.11 (no destroy_snapshots then)", () => {
    const { state } = sim();
    call(state, "PATCH", "/policies", {
      query: "names=daily",
      body: { add_rules: [{ every: 2 * HOUR, keep_for: DAY }] },
    });
    call(state, "PATCH", "/policies", {
      query: "names=daily",
      body: { remove_rules: [{ every: 2 * HOUR, keep_for: DAY }] },
    });
    expect400(
      state,
      "PATCH",
      "/policies",
      { version: "1.10", query: "names=daily&destroy_snapshots=true", body: {} },
      /'destroy_snapshots' is not accepted before REST 1.11/,
    );
    expect400(
      state,
      "PATCH",
      "/policies",
      { version: "1.10", query: "names=daily", body: { rules: [DAILY] } },
      /'rules' is not a field of PolicyPatch in REST 1.10/,
    );
    call(state, "PATCH", "/policies", {
      version: "1.10",
      query: "names=daily",
      body: { remove_rules: [WEEKLY] },
    });
    expect(list(state, "/file-system-snapshots", "filter=destroyed").items.map((s) => s["name"])).toEqual([
      "projects.q3-close",
    ]);
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=hourly", body: { remove_rules: [WEEKLY] } },
      /has no rule every=604800000/,
    );
  });

  it("renames through PolicyPatch name before 1.12 and refuses name and id from 1.12", () => {
    const { state } = sim();
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=daily", body: { name: "nightly" } },
      /'name' is not a field of PolicyPatch in REST 1.12/,
    );
    expect400(
      state,
      "PATCH",
      "/policies",
      { query: "names=daily", body: { id: "x" } },
      /'id' is not a field of PolicyPatch in REST 1.12/,
    );
    call(state, "PATCH", "/policies", { version: "1.11", query: "names=daily", body: { name: "nightly" } });
    expect(list(state, "/policies", "names=nightly").items).toHaveLength(1);
    // Snapshots follow the new name.
    expect(
      list(state, "/file-system-snapshots", "names_or_sources=home.daily.1").items[0]?.["policy"].name,
    ).toBe("nightly");
  });

  it("takes policy snapshots on members (control) and manages members through both paths", () => {
    const { state } = sim();
    const made = runPolicy(state, "hourly");
    expect(made.map((s) => s.source)).toEqual(["builds"]);
    expect(
      list(state, "/policies/file-systems", "policy_names=daily").items.map((m) => m["member"].name),
    ).toEqual(["home", "projects", "finance"]);
    call(state, "POST", "/file-systems/policies", { query: "policy_names=hourly&member_names=logs" });
    expect400(
      state,
      "POST",
      "/policies/file-systems",
      { query: "policy_names=hourly&member_names=logs" },
      /already a member/,
    );
    expect400(
      state,
      "POST",
      "/policies/file-systems",
      { query: "policy_names=hourly&member_names=old-share" },
      /'old-share' is destroyed/,
    );
    expect400(
      state,
      "POST",
      "/policies/file-systems",
      { query: "policy_names=nope&member_names=logs" },
      /Policy 'nope' does not exist/,
    );
    expect(list(state, "/policies/members", "member_names=logs").items).toEqual([
      {
        policy: expect.objectContaining({ name: "hourly" }),
        member: expect.objectContaining({ name: "logs" }),
      },
    ]);
    call(state, "DELETE", "/policies/file-systems", { query: "policy_names=hourly&member_names=logs" });
    expect400(
      state,
      "DELETE",
      "/policies/file-systems",
      { query: "policy_names=hourly&member_names=logs" },
      /not a member/,
    );
    expect(
      list(state, "/file-system-snapshots/policies", "member_names=builds.hourly.1").items[0]?.["policy"]
        .name,
    ).toBe("hourly");
  });
});
