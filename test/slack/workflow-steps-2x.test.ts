/**
 * The Workflow Builder steps of the REST 2.x families' common changes (issue 42), through Bolt's real HTTP
 * receiver (signed function_executed events), the fake Slack Web API and the demo simulator pinned to 2.x: "Set
 * a QoS limit" and "Start a maintenance window" wait for the requester's own Confirm, as every step's change
 * does, then the array has the limit or the window; a person whose role is below the change's fails the step
 * and nothing is sent. The steps' actor rules are those of the other steps (workflow-change-steps.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepIdOf, WORKFLOW_CHANGES } from "../../src/core/catalogue/workflow-steps.js";
import { confirmPrivately, privateCount } from "./helpers/clicks.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";
import { outputsOf, runWorkflowStep, stepCompleted, vouched } from "./helpers/workflow-events.js";

describe("Workflow Builder steps of the REST 2.x families", () => {
  let world: PipelineWorld;
  let h: Harness;

  beforeAll(async () => {
    // Each step may act as an admin; the person Slack vouches for caps it and confirms every change.
    const steps = Object.fromEntries(WORKFLOW_CHANGES.map((p) => [stepIdOf(p), { role: "admin" }]));
    world = await startPipelineWorld(
      ["UBOB"],
      undefined,
      {
        workflow_steps: steps,
        access: { default_role: "viewer", operator: { users: ["UBOB"] }, admin: { users: ["UALICE"] } },
      },
      undefined,
      [],
      { "lab-1": "2.0-2.28" },
    );
    ({ h } = world);
  });
  afterAll(async () => world?.close());

  const array = () => world.pool.get("lab-1");
  const writes = () =>
    Object.entries(world.sim.control.stats().requests)
      .filter(([k]) => !k.startsWith("GET "))
      .reduce((n, [, v]) => n + v, 0);

  it("Set a QoS limit: confirmed by its requester, then the policy has the limit", async () => {
    const before = privateCount(h, "UBOB");
    const id = await runWorkflowStep(h, stepIdOf("qos-policy update"), {
      name: "qos-gold",
      max_total_ops_per_sec: "20000",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    const pendingId = await confirmPrivately(h, "UBOB", before, `wf2-confirm-${id}`);
    const done = await stepCompleted(h, id, "functions.completeSuccess");
    expect(outputsOf(done)).toMatchObject({ status: "executed", request_id: pendingId });
    const gold = await array().get<{ max_total_ops_per_sec?: number }>("/qos-policies", {
      query: { names: ["qos-gold"] },
    });
    expect(gold.items[0]?.max_total_ops_per_sec).toBe(20000);
  });

  it("Start a maintenance window: an admin's step makes the window, as long as asked", async () => {
    const before = privateCount(h, "UALICE");
    const id = await runWorkflowStep(h, stepIdOf("maintenance-window create"), {
      name: "wf-window",
      timeout: "2h",
      requester: vouched("UALICE"),
      channel: "C1",
    });
    await confirmPrivately(h, "UALICE", before, `wf2-window-${id}`);
    await stepCompleted(h, id, "functions.completeSuccess");
    const windows = await array().get<{ name?: string; created?: number; expires?: number }>(
      "/maintenance-windows",
    );
    const made = windows.items.find((w) => w.name === "wf-window");
    expect((made?.expires ?? 0) - (made?.created ?? 0)).toBe(2 * 3_600_000);
  });

  it("an operator's maintenance window step fails and sends nothing (the change needs an admin)", async () => {
    const before = writes();
    const id = await runWorkflowStep(h, stepIdOf("maintenance-window create"), {
      name: "wf-denied",
      timeout: "1h",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    const failed = await stepCompleted(h, id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/admin/);
    expect(writes()).toBe(before);
  });
});
