/**
 * The Workflow Builder steps generated from the change forms (src/core/catalogue/workflow-steps.ts), through Bolt's real
 * HTTP receiver (signed function_executed events), the fake Slack Web API and the simulator: a step's inputs
 * become the line a submitted form stands for and run through the same gate as run_array_command.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepIdOf, WORKFLOW_CHANGES } from "../../src/core/catalogue/workflow-steps.js";
import type { Simulator } from "../../src/simulator/index.js";
import { requestMark, writesSince } from "../commands/sim-requests.js";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction } from "../fakes/payloads.js";
import { confirmPrivately, privateCount } from "./helpers/clicks.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";
import { outputsOf, runWorkflowStep, stepCompleted, vouched } from "./helpers/workflow-events.js";

describe("Workflow Builder steps for the common changes", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    // Each step may act as an operator; the person Slack vouches for caps it and confirms every change.
    const steps = Object.fromEntries(WORKFLOW_CHANGES.map((p) => [stepIdOf(p), { role: "operator" }]));
    world = await startPipelineWorld(["UBOB", "UOLGA"], undefined, { workflow_steps: steps });
    ({ h, sim } = world);
  });

  afterAll(async () => world?.close());

  /** Runs the step as a workflow would; returns its execution id. */
  const runStep = (callbackId: string, inputs: Record<string, unknown>) =>
    runWorkflowStep(h, callbackId, inputs);

  const completed = (id: string, method: "functions.completeSuccess" | "functions.completeError") =>
    stepCompleted(h, id, method);

  it("fs create waits for the requester's own Confirm, then completes with the file system made as the form would make it", async () => {
    const before = privateCount(h, "UBOB");
    const id = await runStep(stepIdOf("fs create"), {
      name: "wf made",
      size: "1T",
      nfs: true,
      hard_limit: "false",
      array: "lab-1",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    // A workflow never changes an array on its own: nothing exists until the person Slack vouched for confirms.
    const pendingId = await confirmPrivately(h, "UBOB", before, `wfc-confirm-${id}`);
    const done = await completed(id, "functions.completeSuccess");
    expect(outputsOf(done)).toMatchObject({ status: "executed", request_id: pendingId });
    // The name with a space reached the command as one word: the line was quoted as a submitted form's is.
    const fs = sim.state.fileSystems.get("wf made");
    expect(fs?.provisioned).toBe(2 ** 40);
    expect(fs?.nfs.v3_enabled).toBe(true);
    expect(fs?.hard_limit_enabled).toBe(false);
  });

  it("fs update waits for the person's Confirm and completes once the change is carried out", async () => {
    const before = h.fake.callsOf("chat.postEphemeral").length;
    const id = await runStep(stepIdOf("fs update"), {
      name: "scratch",
      nfs_rules: "10.0.0.0/8(rw) *(ro)",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    const card = await h.fake.waitForCall("chat.postEphemeral", (c) => c.args["user"] === "UBOB", before + 1);
    const confirm = cardButton(card, "confirm");
    expect(sim.state.fileSystems.get("scratch")?.nfs.rules).not.toBe("10.0.0.0/8(rw) *(ro)");
    expect(
      h.fake.callsOf("functions.completeSuccess").some((c) => c.args["function_execution_id"] === id),
    ).toBe(false);
    await h.driver.interactive(
      blockAction({
        actionId: confirm.action_id,
        value: confirm.value,
        userId: "UBOB",
        messageTs: `${id.slice(2)}.000100`,
        ephemeral: true,
        responseUrl: h.fake.responseUrl(`wfc-confirm-${id}`),
      }),
    );
    const done = await completed(id, "functions.completeSuccess");
    expect(outputsOf(done)).toMatchObject({ status: "executed", request_id: confirm.value });
    expect(sim.state.fileSystems.get("scratch")?.nfs.rules).toBe("10.0.0.0/8(rw) *(ro)");
  });

  it("a bad value fails the step with the command's own message and sends nothing", async () => {
    const mark = requestMark(sim);
    const open = (await world.store.listOpen()).length;
    const id = await runStep(stepIdOf("fs create"), {
      name: "wf-bad",
      size: "lots",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    const failed = await completed(id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/size/i);
    expect(String(failed.args["error"])).toContain("lots");
    expect(sim.state.fileSystems.has("wf-bad")).toBe(false);
    expect(writesSince(sim, mark, "/file-systems")).toEqual([]);
    // Nothing waits for a Confirm either: the request was refused before its impact.
    expect((await world.store.listOpen()).length).toBe(open);
  });

  it("a viewer's step fails and changes nothing", async () => {
    const quotas = [...sim.state.users.quotas.entries()];
    const mark = requestMark(sim);
    const id = await runStep(stepIdOf("quota set"), {
      kind: "user",
      who: "wfuser",
      size: "1T",
      fs: "scratch",
      requester: vouched("UCAROL"),
      channel: "C1",
    });
    const failed = await completed(id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/operator/);
    expect([...sim.state.users.quotas.entries()]).toEqual(quotas);
    expect(writesSince(sim, mark, "/quotas/users")).toEqual([]);
  });

  it("every generated step is handled: a function_executed for each is answered", async () => {
    for (const path of WORKFLOW_CHANGES) {
      // Without a command's values, each step answers at once with an error, which only a handler can do.
      const id = await runStep(stepIdOf(path), { channel: "C1" });
      const failed = await completed(id, "functions.completeError");
      expect(String(failed.args["error"]).length).toBeGreaterThan(0);
    }
  });
});
