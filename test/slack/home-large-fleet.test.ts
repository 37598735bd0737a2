/**
 * The App Home of a thousand arrays is a valid view (the fake Slack's Block Kit rules, 100 blocks on a view):
 * worst arrays first, and the rest counted by how they stand instead of one line each.
 */
import { describe, expect, it } from "vitest";
import type { FleetArray } from "../../src/core/requests/fleet.js";
import { homeView } from "../../src/slack/home.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";

const TIB = 2 ** 40;
const name = (i: number) => `fb-${String(i).padStart(4, "0")}`;

/** 1,000 arrays in config order; the trouble is at the end of the list, where a first-N view never looks. */
function fleet(): FleetArray[] {
  return Array.from({ length: 1000 }, (_, i): FleetArray => {
    const array = name(i);
    if (i >= 990) return { array, error: "no answer within 10 s" };
    const used = i >= 980 ? 0.95 : i >= 950 ? 0.85 : 0.5;
    return {
      array,
      capacity: { total: 100 * TIB, used: used * 100 * TIB, daysTo: [] },
      alerts: { critical: i >= 970 && i < 980 ? 1 : 0, warning: 0, info: 0 },
    };
  });
}

describe("App Home for 1,000 arrays", () => {
  it("fits a view, shows the worst arrays first and counts the rest", () => {
    const view = homeView({
      role: "viewer",
      arrays: fleet().map((f) => ({ name: f.array, reachable: f.error === undefined })),
      fleet: fleet(),
      pending: [],
      help: [{ usage: "Storage", summary: "fs (list, show)" }],
    });
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    // Slack refuses a view over 250 kB (view_too_large).
    expect(JSON.stringify(view).length).toBeLessThan(250_000);
    const shown = JSON.stringify(view.blocks);
    const order = [...shown.matchAll(/\*(fb-\d{4})\*/g)].map((m) => m[1]);
    // Not read (990–999), then critical or over 90 % (970–989, fullest first), then the over-80 % ones.
    expect(order.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => name(990 + i)));
    expect(new Set(order.slice(10, 30))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => name(970 + i))),
    );
    expect(order.slice(30, 40).every((n) => Number(n?.slice(3)) >= 950)).toBe(true);
    expect(order).toHaveLength(40);
    expect(shown).toContain("1,000 arrays: 10 not read, 20 need attention, 20 with warnings, 950 fine.");
    expect(shown).toContain("…and 960 more arrays (10 with warnings, 950 fine)");
  });
});
