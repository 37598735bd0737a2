/**
 * The Workflow Builder step "Run an /array command", through Bolt's real HTTP receiver (a signed
 * function_executed event), the fake Slack Web API (which checks functions.completeSuccess/completeError as Slack
 * documents them) and the simulator: a read completes at once with its answer, within the step's role capped by
 * the requester's; a refused command fails the step; a change that needs approval is first confirmed by the person
 * Slack vouched for, then approved by another, and the step completes only once it is carried out, or fails when
 * it is denied.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction } from "../fakes/payloads.js";
import { confirmPrivately, privateCount } from "./helpers/clicks.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";
import { outputsOf, runWorkflowStep, stepCompleted, vouched } from "./helpers/workflow-events.js";

describe("Workflow Builder step: run an /array command", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB", "UOLGA"], undefined, {
      workflow_steps: { run_array_command: { role: "operator" } },
    });
    ({ h, sim } = world);
  });

  afterAll(async () => world?.close());

  /** Runs the step as a workflow would; returns its execution id. */
  const runStep = (command: string, user: string) =>
    runWorkflowStep(h, "run_array_command", { command, requester: vouched(user), channel: "C1" });

  const completed = (id: string, method: "functions.completeSuccess" | "functions.completeError") =>
    stepCompleted(h, id, method);

  it("a read completes at once with its answer", async () => {
    const id = await runStep("/array fs list", "UBOB");
    const done = await completed(id, "functions.completeSuccess");
    expect(outputsOf(done)).toMatchObject({ status: "done" });
    expect(outputsOf(done)["result"]).toContain("scratch");
  });

  it("a command the person may not run fails the step, and nothing changes", async () => {
    const id = await runStep("fs create wf-viewer 1T --nfs", "UCAROL");
    const failed = await completed(id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/operator/);
    expect(sim.state.fileSystems.has("wf-viewer")).toBe(false);
  });

  it("a change that needs approval is confirmed by its requester, then completes only once another person approves it", async () => {
    const ephemerals = privateCount(h, "UBOB");
    const before = h.fake.callsOf("chat.postMessage").length;
    const id = await runStep("fs resize scratch 4T", "UBOB");
    await confirmPrivately(h, "UBOB", ephemerals, `wf-confirm-${id}`);
    const card = await h.fake.waitForCall("chat.postMessage", () => true, before + 1);
    const approve = cardButton(card, "approve");
    expect(
      h.fake.callsOf("functions.completeSuccess").some((c) => c.args["function_execution_id"] === id),
    ).toBe(false);
    const ts = [...h.fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    await h.driver.interactive(
      blockAction({
        actionId: approve.action_id,
        value: approve.value,
        userId: "UOLGA",
        messageTs: ts,
        responseUrl: h.fake.responseUrl(`wf-click-${id}`),
      }),
    );
    const done = await completed(id, "functions.completeSuccess");
    expect(outputsOf(done)).toMatchObject({ status: "executed", request_id: approve.value });
    expect(sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);
  });

  it("a denied change fails the step", async () => {
    const ephemerals = privateCount(h, "UBOB");
    const before = h.fake.callsOf("chat.postMessage").length;
    const id = await runStep("fs resize scratch 3T", "UBOB");
    await confirmPrivately(h, "UBOB", ephemerals, `wf-confirm-${id}`);
    const card = await h.fake.waitForCall("chat.postMessage", () => true, before + 1);
    const deny = cardButton(card, "deny");
    const ts = [...h.fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    await h.driver.interactive(
      blockAction({
        actionId: deny.action_id,
        value: deny.value,
        userId: "UOLGA",
        messageTs: ts,
        responseUrl: h.fake.responseUrl(`wf-deny-${id}`),
      }),
    );
    const failed = await completed(id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/not carried out, the request is vetoed/);
    expect(sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);
  });
});
