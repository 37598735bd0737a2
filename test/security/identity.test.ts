/**
 * Who acts, tried as an attacker would (issue 39), through Bolt's real HTTP receiver fed signed requests, the fake
 * Slack Web API and the simulator over HTTPS: a workflow step naming an admin, a step's change approved by the
 * person who started it, a secret in a step's outputs, limits charged to a named person, array text that would
 * render as Slack markup in a later step, a form whose metadata pairs one form with another command's line, and
 * every field a face carries that could name a user: none of them becomes the actor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { FORM_CALLBACK_ID } from "../../src/slack/form-modal.js";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { clickCard, confirmPrivately } from "../slack/helpers/clicks.js";
import type { Harness } from "../slack/helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "../slack/helpers/pipeline-world.js";
import { outputsOf, runWorkflowStep, stepCompleted, vouched } from "../slack/helpers/workflow-events.js";

const ADMIN = "UALICE";
const OPERATOR = "UBOB";
const OTHER_OPERATOR = "UOLGA";
const VIEWER = "UCAROL";

describe("who acts: no name carried in data becomes the actor", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld([OPERATOR, OTHER_OPERATOR], undefined, {
      access: {
        default_role: "viewer",
        admin: { users: [ADMIN] },
        operator: { users: [OPERATOR, OTHER_OPERATOR] },
      },
      // The generic step may act as an operator; the person Slack vouches for caps it.
      workflow_steps: { run_array_command: { role: "operator" } },
      limits: { burst: 4, per_minute: 1, concurrent: 5 },
    });
    ({ h, sim } = world);
  });

  afterAll(async () => world?.close());

  const step = (inputs: Record<string, unknown>) =>
    runWorkflowStep(h, "run_array_command", { channel: "C1", ...inputs });
  const privateTo = (user: string) =>
    h.fake.callsOf("chat.postEphemeral").filter((c) => c.args["user"] === user);
  const allOutputs = () =>
    JSON.stringify(
      [...h.fake.callsOf("functions.completeSuccess"), ...h.fake.callsOf("functions.completeError")].map(
        (c) => c.args,
      ),
    );

  it("a step naming an admin in a user field changes nothing and reads nothing admin-only", async () => {
    const made = await step({ command: "fs create wf-rt 1T --nfs", user: ADMIN, run_as: ADMIN });
    const failed = await stepCompleted(h, made, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/without a person/);
    expect(sim.state.fileSystems.has("wf-rt")).toBe(false);
    // A user id typed where the user_context goes is text, not a person Slack vouched for: the admin-only read
    // is refused at the step's own role.
    const key = await step({ command: "array-connection key show", requester: ADMIN, user: ADMIN });
    const refused = await stepCompleted(h, key, "functions.completeError");
    expect(String(refused.args["error"])).toMatch(/needs the admin role/);
    expect(privateTo(ADMIN)).toEqual([]);
  });

  it("the step's role is capped by the person Slack vouches for: a viewer's workflow acts as a viewer", async () => {
    const id = await step({ command: "fs create wf-cap 1T --nfs", requester: vouched(VIEWER) });
    const failed = await stepCompleted(h, id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/needs the operator role/);
    expect(sim.state.fileSystems.has("wf-cap")).toBe(false);
  });

  it("the person who started the step confirms it and can never be its approver; the named person is not asked", async () => {
    const mine = privateTo(OPERATOR).length;
    const posts = h.fake.callsOf("chat.postMessage").length;
    const id = await step({ command: "fs resize scratch 4T", requester: vouched(OPERATOR), user: ADMIN });
    const ask = await h.fake.waitForCall("chat.postEphemeral", (c) => c.args["user"] === OPERATOR, mine + 1);
    expect(privateTo(ADMIN)).toEqual([]);
    const confirm = cardButton(ask, "confirm");
    // Before the requester confirms, nobody can approve it, even with the request's id.
    const early = await h.driver.interactive(
      blockAction({
        actionId: "array.approve",
        value: confirm.value,
        userId: OTHER_OPERATOR,
        messageTs: "1.000001",
        responseUrl: h.fake.responseUrl(`early-${id}`),
      }),
    );
    expect(early.status).toBe(200);
    expect((await world.store.get(confirm.value))?.policy).toBe("confirm");
    await h.driver.interactive(
      blockAction({
        actionId: confirm.action_id,
        value: confirm.value,
        userId: OPERATOR,
        messageTs: "1.000002",
        ephemeral: true,
        responseUrl: h.fake.responseUrl(`confirm-${id}`),
      }),
    );
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    const pendingId = await clickCard(h, OPERATOR, card, "approve", `self-${id}`);
    expect((await world.store.get(pendingId))?.approvals).toEqual([]);
    expect(sim.state.fileSystems.get("scratch")?.provisioned).not.toBe(4 * 2 ** 40);
    await clickCard(h, OTHER_OPERATOR, card, "approve", `other-${id}`);
    const done = await stepCompleted(h, id, "functions.completeSuccess");
    expect(outputsOf(done)["status"]).toBe("executed");
    expect(sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);
  });

  it("a new access key's secret reaches only its requester, privately, never the step's outputs", async () => {
    const mine = privateTo(ADMIN).length;
    const before = new Set(sim.state.accessKeys.keys());
    const id = await step({ command: "access-key create analytics/etl", requester: vouched(ADMIN) });
    await confirmPrivately(h, ADMIN, mine, `key-${id}`);
    await stepCompleted(h, id, "functions.completeSuccess");
    const made = [...sim.state.accessKeys.values()].find((k) => !before.has(k.name));
    const secret = String(made?.secret ?? "");
    expect(secret.length).toBeGreaterThan(8);
    expect(allOutputs()).not.toContain(secret);
    // The Confirm click's own response_url carries the secret to its requester alone.
    const privately = await h.fake.waitForResponse(
      (r) => r.id === `key-${id}` && JSON.stringify(r.body).includes(secret),
    );
    expect(JSON.stringify(privately.body)).toContain(secret);
  });

  it("array text in a step's outputs is escaped: no mention, channel ping or link renders in a later step", async () => {
    const scratch = sim.state.fileSystems.get("scratch");
    if (!scratch) throw new Error("the demo has no scratch");
    sim.state.fileSystems.set("<!channel>", { ...scratch, name: "<!channel>" });
    const id = await step({ command: "fs list", requester: vouched(VIEWER) });
    const done = await stepCompleted(h, id, "functions.completeSuccess");
    const result = outputsOf(done)["result"] ?? "";
    expect(result).toContain("&lt;!channel&gt;");
    expect(result).not.toContain("<!channel>");
    sim.state.fileSystems.delete("<!channel>");
  });

  it("limits are charged to the step and the person who ran it, never to the person a field names", async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => step({ command: "fs list", requester: vouched(VIEWER), user: ADMIN })),
    );
    const errors = await Promise.all(
      runs.map((id) =>
        Promise.race([
          stepCompleted(h, id, "functions.completeError").then((c) => String(c.args["error"])),
          stepCompleted(h, id, "functions.completeSuccess").then(() => "ok"),
        ]),
      ),
    );
    expect(errors.filter((e) => /Slow down|too many|try again/i.test(e)).length).toBeGreaterThan(0);
    // The admin named in every run has spent nothing: their own command is answered.
    const url = h.fake.responseUrl("alice-own");
    await h.driver.command(slashCommand({ text: "fs list", userId: ADMIN, responseUrl: url }));
    const answer = await h.fake.waitForResponse((r) => r.id === "alice-own");
    expect(JSON.stringify(answer.body)).not.toMatch(/Slow down/);
  });

  it("a form whose metadata pairs it with another command's line runs nothing", async () => {
    const open = (await world.store.listOpen()).length;
    const acked = await h.driver.interactive(
      viewSubmission({
        userId: ADMIN,
        callbackId: FORM_CALLBACK_ID,
        privateMetadata: JSON.stringify({ path: "fs create", channelId: "C1", line: "fs destroy scratch" }),
        values: {},
      }),
    );
    expect(acked.status).toBe(200);
    expect(JSON.stringify(acked.body)).toContain("no longer matches");
    expect((await world.store.listOpen()).length).toBe(open);
    expect(sim.state.fileSystems.get("scratch")?.destroyed).toBe(false);
  });
});
