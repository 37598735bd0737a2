import { describe, expect, test } from "vitest";
import { destroyedEstimate } from "../../commands/policy/rule-changes.js";
import { parseRule, type Rule, ruleText } from "../../commands/policy/rules.js";

const H = 3_600_000;
const D = 24 * H;

describe("policy rules as text", () => {
  test.each<[Rule, string]>([
    [{ every: H, keep_for: D }, "every 1h, keep 1d"],
    [{ every: D, keep_for: 7 * D, at: 2 * H, time_zone: "UTC" }, "every 1d at 02:00 UTC, keep 7d"],
    [{ every: 30 * 60_000, keep_for: 90 * 60_000 }, "every 30m, keep 1h30m"],
    [{ every: 7 * D, keep_for: 28 * D, at: 3 * H + 30 * 60_000 }, "every 7d at 03:30, keep 28d"],
  ])("%j reads as %s and parses back", (rule, text) => {
    expect(ruleText(rule)).toBe(text);
    expect(parseRule(text)).toEqual(rule);
  });

  test("accepts the forms people type", () => {
    expect(parseRule("every 1d at 00:00 keep 7d")).toEqual({ every: D, keep_for: 7 * D, at: 0 });
    expect(parseRule("Every 2w, keep for 8w")).toEqual({ every: 14 * D, keep_for: 56 * D });
    expect(parseRule("every 1d at 02:00 Europe/Berlin, keep 7d")).toMatchObject({
      time_zone: "Europe/Berlin",
    });
  });

  test.each([
    ["every 1h", "is not a rule"],
    ["every 1m, keep 1h", "at least 5m"],
    ["every 1d, keep 1h", "less than the interval"],
    ["every 6h at 02:00, keep 1d", '"at" needs an interval of whole days'],
    ["every 1d at 25:00, keep 7d", "is not a time of day"],
  ])("refuses %s with the reason", (text, reason) => {
    expect(parseRule(text)).toContain(reason);
  });
});

describe("how many snapshots a rule removal destroys", () => {
  const now = 100 * D;
  const created = new Map([["home", [now - 2 * H, now - 3 * D, now - 10 * D, now - 20 * D]]]);
  const counts = new Map([["home", 4]]);

  test("every rule removed: all of them, exactly", () => {
    expect(destroyedEstimate(created, counts, [], now)).toMatchObject({ min: 4, max: 4, exact: true });
  });

  test("a rule that keeps 7d stays: the two older snapshots are certainly the removed rule's", () => {
    const est = destroyedEstimate(created, counts, [{ every: D, keep_for: 7 * D }], now);
    expect(est).toMatchObject({ min: 2, max: 4, exact: false });
    expect(est.text).toBe("between 2 and 4 snapshots (home 2–4)");
  });
});
