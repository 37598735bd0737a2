import { describe, expect, it } from "vitest";
import { createRouter, globToRegExp } from "../../src/alerts/router.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";

const router = createRouter(
  defaultAlertsConfig({
    routes: [
      { name: "oncall", min_severity: "critical", channels: ["CONCALL01"] },
      { name: "prod-hw", arrays: ["tag:prod"], codes: [1000, 1001], channels: ["CHW000001", "CONCALL01"] },
      {
        name: "quota",
        components: ["fs-*", "a.b(c)"],
        severity: ["info", "warning"],
        channels: ["CQUOTA001"],
      },
      { name: "fb9", arrays: ["fb9"], channels: ["CFB900001"] },
    ],
    default_channels: ["CALL00001"],
  }),
);

describe("routing", () => {
  it.each([
    [
      "critical blade on a prod array",
      { array: "fb1", tags: ["prod"], severity: "critical", code: 1000, component: "CH1.FB1" },
      ["CONCALL01", "CHW000001"],
      ["oncall", "prod-hw"],
    ],
    [
      "warning blade on a prod array",
      { array: "fb1", tags: ["prod"], severity: "warning", code: 1000, component: "CH1.FB1" },
      ["CHW000001", "CONCALL01"],
      ["prod-hw"],
    ],
    [
      "warning blade elsewhere goes to the default",
      { array: "fb2", tags: ["dev"], severity: "warning", code: 1000, component: "CH1.FB1" },
      ["CALL00001"],
      ["default"],
    ],
    [
      "component glob",
      { array: "fb2", tags: [], severity: "info", code: 1101, component: "fs-home" },
      ["CQUOTA001"],
      ["quota"],
    ],
    [
      "glob characters other than * are literal",
      { array: "fb2", tags: [], severity: "info", code: 1101, component: "a.b(c)" },
      ["CQUOTA001"],
      ["quota"],
    ],
    [
      "a dot is not a wildcard",
      { array: "fb2", tags: [], severity: "info", code: 1101, component: "aXb(c)" },
      ["CALL00001"],
      ["default"],
    ],
    [
      "reachability (no code) skips code routes",
      { array: "fb1", tags: ["prod"], severity: "critical", component: "array" },
      ["CONCALL01"],
      ["oncall"],
    ],
    [
      "by array name",
      { array: "fb9", tags: [], severity: "info", code: 1, component: "x" },
      ["CFB900001"],
      ["fb9"],
    ],
  ] as const)("%s", (_name, facts, channels, routes) => {
    const d = router.route({ ...facts, tags: [...facts.tags] });
    expect(d.channels).toEqual(channels);
    expect(d.routes).toEqual(routes);
  });

  it("answers which routes reach a channel", () => {
    expect(router.routesFor("CONCALL01").map((r) => r.name)).toEqual(["oncall", "prod-hw"]);
    expect(router.routesFor("CALL00001")).toEqual([{ name: "default", summary: "alerts no route matches" }]);
    expect(router.routesFor("CNONE0001")).toEqual([]);
  });

  it("globs match whole names", () => {
    expect(globToRegExp("CH1.FB*").test("CH1.FB12")).toBe(true);
    expect(globToRegExp("CH1.FB*").test("xCH1.FB12")).toBe(false);
  });
});
