/**
 * `--array` naming a fleet member the bot is not configured for: it is reached through the configured member
 * whose fleet lists it, every request naming it in `context_names` (REST 2.17+), through the real client and the
 * simulator over HTTPS. fb-edge-01 runs as its own simulated array, joined to fb-two's fleet with a fleet key,
 * and is never configured: the bot reaches it only through fb-two, and the simulator answers from its state.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { joinThroughKey, type Simulator, startSimulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { runThroughGates } from "./demo-examples.js";

let h: Harness;
let edge: Simulator;
let ghost: Simulator;

beforeEach(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-two", versions: "2.0-2.28" },
      { name: "fb-old", versions: "1.0-1.12" },
    ],
  });
  edge = await startSimulator({ arrayName: "fb-edge-01", scenario: "empty", versions: "2.0-2.28" });
  // Running in the same process, in no fleet: a name the bot must not reach whatever is typed.
  ghost = await startSimulator({ arrayName: "fb-ghost", scenario: "empty", versions: "2.0-2.28" });
  const two = h.sims.get("fb-two");
  if (!two) throw new Error("fb-two runs");
  joinThroughKey(edge.state, two.state);
});
afterEach(async () => {
  await Promise.all([edge.close(), ghost.close()]);
  await h.close();
});

/** The changing requests a simulator received itself, with their query. */
const changes = (sim: Simulator | undefined) =>
  (sim?.control.stats().recent ?? [])
    .filter((r) => r.method !== "GET" && /^\/api\/2/.test(r.path))
    .map((r) => `${r.method} ${r.path}?${r.query}`);

describe("--array names a member of a configured array's fleet", () => {
  test("arrays list names it with the configured array it is reached through", async () => {
    expect(textOf(await h.run("carol", "arrays list"))).toContain(
      "Fleet member fb-edge-01 (fleet fleet-prod) is reached through fb-two: --array fb-edge-01.",
    );
  });

  test("a dry run shows the request with its context; nothing is sent", async () => {
    const text = textOf(await h.run("alice", "fs create edge-cache 1T --array fb-edge-01 --dry-run"));
    expect(text).toContain(
      'POST /api/2.28/file-systems?context_names=fb-edge-01&names=edge-cache {"provisioned":1099511627776}',
    );
    expect(changes(h.sims.get("fb-two"))).toEqual([]);
    expect(edge.state.fileSystems.has("edge-cache")).toBe(false);
  });

  test("the real run goes through the configured member and changes the member it names", async () => {
    const text = textOf(await runThroughGates(h, "fs create edge-cache 1T --array fb-edge-01"));
    expect(text).toContain("Created file system *edge-cache* on fb-edge-01");
    expect(edge.state.fileSystems.has("edge-cache")).toBe(true);
    expect(h.sims.get("fb-two")?.state.fileSystems.has("edge-cache")).toBe(false);
    // Sent to fb-two, in fb-edge-01's context; fb-edge-01's own address was never asked.
    expect(changes(h.sims.get("fb-two"))).toEqual([
      "POST /api/2.28/file-systems?context_names=fb-edge-01&names=edge-cache",
    ]);
    expect(edge.control.stats().total).toBe(0);
    // Reads come back from the member too.
    expect(textOf(await h.run("carol", "fs list --array fb-edge-01"))).toContain("edge-cache");
  });

  test("a change behind a gate: the card and the recheck at Confirm plan it with its context; the member changes", async () => {
    await runThroughGates(h, "nfs-export-policy create edge-clients --array fb-edge-01");
    const asked = textOf(await h.run("alice", "nfs-export-policy delete edge-clients --array fb-edge-01"));
    expect(asked).toContain(
      "DELETE /api/2.28/nfs-export-policies?names=edge-clients&context_names=fb-edge-01",
    );
    const done = textOf(await runThroughGates(h, "nfs-export-policy delete edge-clients --array fb-edge-01"));
    expect(done).toContain("Deleted NFS export policy edge-clients on fb-edge-01.");
    expect(changes(h.sims.get("fb-two"))).toEqual([
      "POST /api/2.28/nfs-export-policies?names=edge-clients&context_names=fb-edge-01",
      "DELETE /api/2.28/nfs-export-policies?names=edge-clients&context_names=fb-edge-01",
    ]);
    expect(edge.state.generic.get("/nfs-export-policies")?.items.has("edge-clients")).toBe(false);
  });

  test("a viewer is refused there as on any array, and nothing changes", async () => {
    const text = textOf(await h.run("carol", "fs create edge-cache 1T --array fb-edge-01"));
    expect(text).toContain(
      "`fs create` needs the operator role on array fb-edge-01; you are a viewer there.",
    );
    expect(edge.state.fileSystems.has("edge-cache")).toBe(false);
  });

  test("only names a fleet lists: another array, even one running beside it, is unknown", async () => {
    const text = textOf(await h.run("alice", "fs list --array fb-ghost"));
    expect(text).toContain(
      'There is no array called "fb-ghost". Known arrays: fb-two, fb-old. Fleet members reached through them: fb-edge-01 (through fb-two).',
    );
    expect(ghost.control.stats().total).toBe(0);
  });

  test("an operation that takes no context is refused before anything is sent", async () => {
    const before = h.sims.get("fb-two")?.control.stats().requests["GET /api/2.28/alerts"] ?? 0;
    expect(textOf(await h.run("alice", "alert list --array fb-edge-01"))).toContain(
      "fb-edge-01 is reached through its fleet (fleet-prod, by fb-two), and GET /alerts cannot run for another fleet member",
    );
    expect(h.sims.get("fb-two")?.control.stats().requests["GET /api/2.28/alerts"] ?? 0).toBe(before);
  });
});
