/**
 * Fleets, node groups and the diagnostics tools on a REST 2.x array, through the real client and the simulator
 * over HTTPS: a fleet or node group is renamed (`--new-name`, PATCH `{name}`), a node leaves its node group, the
 * diagnostics tools are updated, a fleet is created on an array in none. A viewer changes nothing; a dry run
 * shows the exact request; the real run passes its gate and changes the array.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Json } from "../../src/simulator/models/body.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { type ChangeCase, testChanges } from "./change-cases.js";
import { runThroughGates } from "./demo-examples.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-two", versions: "2.0-2.28" },
      { name: "fb-free", versions: "2.0-2.28", scenario: "empty" },
    ],
  });
});
afterEach(async () => h.close());

/** The names a simulated array holds on a 2.x path (the family records its resources keep). */
const held = (array: string, path: string) => [
  ...(h.sims.get(array)?.state.generic.get(path)?.items.keys() ?? []),
];
const item = (array: string, path: string, name: string) =>
  h.sims.get(array)?.state.generic.get(path)?.items.get(name) as Json | undefined;

const CASES: ChangeCase[] = [
  {
    line: "fleet update fleet-prod --new-name fleet-production --array fb-two",
    request: 'PATCH /api/2.28/fleets?names=fleet-prod {"name":"fleet-production"}',
    before: () => [
      held("fb-two", "/fleets"),
      (item("fb-two", "/fleets/members", "fb-two")?.["fleet"] as Json)?.["name"],
    ],
    after: [["fleet-production"], "fleet-production"],
  },
  {
    line: "node-group update ng-a --new-name ng-analytics --array fb-two",
    request: 'PATCH /api/2.28/node-groups?names=ng-a {"name":"ng-analytics"}',
    before: () => [held("fb-two", "/node-groups"), held("fb-two", "/node-groups/nodes")],
    after: [["ng-analytics", "ng-archive"], ["ng-analytics/nodes-demo"]],
  },
  {
    line: "node-group node delete ng-a nodes-demo --array fb-two",
    request: "DELETE /api/2.28/node-groups/nodes?node_group_names=ng-a&node_names=nodes-demo",
    before: () => held("fb-two", "/node-groups/nodes"),
    after: [],
  },
  {
    line: "support-diagnostic settings update --array fb-two",
    request: "PATCH /api/2.28/support-diagnostics/settings {}",
    before: () => item("fb-two", "/support-diagnostics/settings", "tools")?.["version"] ?? "1.0.0",
    after: "1.1.0",
  },
  {
    line: "fleet create fleet-dr --array fb-free",
    request: "POST /api/2.28/fleets?names=fleet-dr",
    before: () => [held("fb-free", "/fleets"), held("fb-free", "/fleets/members")],
    after: [["fleet-dr"], ["fb-free"]],
  },
  {
    line: "fleet member join fleet-prod fb-two --array fb-free",
    request:
      'POST /api/2.28/fleets/members?fleet_names=fleet-prod {"members":[{"member":{"name":"fb-free"},"key":"(new fleet key)"}]}',
    before: () => [held("fb-free", "/fleets/members"), held("fb-two", "/fleets/members")],
    after: [
      ["fb-two", "fb-free"],
      ["fb-two", "fb-free"],
    ],
  },
];

describe("fleets, node groups and diagnostics tools on 2.x", () => {
  testChanges(CASES, () => h);

  test("a member joined with a key leaves when another member removes it; then the fleet may go", async () => {
    await runThroughGates(h, "fleet member join fleet-prod fb-two --array fb-free");
    expect(textOf(await runThroughGates(h, "fleet delete fleet-prod --array fb-two"))).toContain(
      "still has members 'fb-free'",
    );
    await runThroughGates(h, "fleet member remove fb-free --array fb-two");
    expect([
      held("fb-two", "/fleets/members"),
      held("fb-free", "/fleets"),
      held("fb-free", "/fleets/members"),
    ]).toEqual([["fb-two"], [], []]);
    await runThroughGates(h, "fleet delete fleet-prod --array fb-two");
    expect(held("fb-two", "/fleets")).toEqual([]);
  });

  test("the array keeps its rules: a taken name, a node not in the group (the card says so first), a fleet on an array in one", async () => {
    await h.run("alice", "node-group create ng-b --array fb-two");
    expect(
      textOf(await runThroughGates(h, "node-group update ng-a --new-name ng-b --array fb-two")),
    ).toContain("Node group 'ng-b' already exists.");
    expect(
      textOf(await runThroughGates(h, "node-group node delete ng-a nodes-old --array fb-two")),
    ).toContain("There is no node group member ng-a / nodes-old");
    expect(textOf(await runThroughGates(h, "fleet create fleet-two --array fb-two"))).toContain(
      "is already in a fleet",
    );
    expect(held("fb-two", "/node-groups/nodes")).toEqual(["ng-a/nodes-demo"]);
  });
});
