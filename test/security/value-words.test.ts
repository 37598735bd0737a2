/**
 * Values become words by construction (issue 39), through the real paths: a form submitted to Bolt's HTTP
 * receiver (typed, or opened from a list's Change menu prefilled from the array), a Workflow Builder step's
 * signed `function_executed` event, and an MCP tool called over Streamable HTTP, each against the simulator. A value written to add options (`x’ --hard-limit --nfs --array ‘lab-1`: its
 * `’` closed a `'` the old quoting opened) is one value: the file system is made with that very name and none of
 * the options; Slack markup in a value (`&amp;`, `<x|y>`) stays as typed; a value no quote can carry is refused,
 * naming its field, and nothing is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepIdOf } from "../../src/core/catalogue/workflow-steps.js";
import type { Simulator } from "../../src/simulator/index.js";
import { blankFileSystem } from "../../src/simulator/models/file-system.js";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { queryOf } from "../helpers/wire.js";
import { startMcpWorld, TOKENS, textOfResult } from "../mcp/helpers.js";
import type { Harness } from "../slack/helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "../slack/helpers/pipeline-world.js";
import { runWorkflowStep, stepCompleted, vouched } from "../slack/helpers/workflow-events.js";

/** Made of the issue's finding: on the old quoting it became the name `x` with a hard limit and NFS. */
const injected = (tag: string) => `${tag}’ --hard-limit --nfs --array ‘lab-1`;
/** A value holding a closer of every quote the tokenizer knows. */
const UNCARRIABLE = `q'"»`;

function expectMadeAsNamed(sim: Simulator, name: string, tag: string) {
  const fs = sim.state.fileSystems.get(name);
  expect(fs, name).toBeDefined();
  expect(fs?.hard_limit_enabled).toBe(false);
  expect(fs?.nfs.v3_enabled).toBe(false);
  // Nothing was made under the part before the quote, the name the old line gave.
  expect(sim.state.fileSystems.has(tag)).toBe(false);
}

describe("values as words: Slack forms and workflow steps", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;
  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], undefined, {
      workflow_steps: { [stepIdOf("fs create")]: { role: "operator" } },
    });
    ({ h, sim } = world);
  });
  afterAll(async () => world?.close());
  const posts = () => sim.control.stats().requests["POST /api/1.12/file-systems"] ?? 0;
  const isCreated = (c: { args: Record<string, unknown> }) =>
    JSON.stringify(c.args).includes("Created file system");
  /** The channel's "Created file system" announcement after the `n` already made. */
  const announced = (n: number) => h.fake.waitForCall("chat.postMessage", isCreated, n + 1);
  const made = () => h.fake.callsOf("chat.postMessage").filter(isCreated).length;

  /** Opens `fs create`'s form, submits `values`, and (when the preview is shown) submits it again for real. */
  async function submitForm(values: Record<string, string>) {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({ text: "fs create", userId: "UBOB", responseUrl: h.fake.responseUrl(`vw-${before}`) }),
    );
    const view = (await h.fake.waitForCall("views.open", () => true, before + 1)).args["view"] as {
      private_metadata: string;
    };
    const submit = (meta: string, vals: Record<string, string>) =>
      h.driver.interactive(
        viewSubmission({
          userId: "UBOB",
          callbackId: "array_form",
          privateMetadata: meta,
          values: Object.fromEntries(Object.entries(vals).map(([k, v]) => [k, { array_form_value: v }])),
        }),
      );
    type Answer = {
      response_action: string;
      errors?: Record<string, string>;
      view?: { private_metadata: string };
    };
    const first = (await submit(view.private_metadata, values)).body as Answer;
    if (first.response_action !== "update" || !first.view) return first;
    return (await submit(first.view.private_metadata, {})).body as Answer;
  }

  it("a form's name that reads as options is one name: made as named, with no option nobody chose", async () => {
    const name = injected("formx");
    const n = made();
    const done = await submitForm({ name, size: "1T" });
    expect(done.response_action).toBe("clear");
    await announced(n);
    expectMadeAsNamed(sim, name, "formx");
  });

  it("the Change menu's form of an object so named changes that object, with no option nobody chose", async () => {
    // Named on the array itself (by another tool, or a past form): the Change form is prefilled with that name.
    const name = injected("changex");
    sim.state.fileSystems.set(name, blankFileSystem(sim.state.newId(), name, sim.state.clock()));
    // The list's Change menu, a pick of that name: the update form prefilled from the object as the array has it.
    const listed = `change-${made()}`;
    await h.driver.command(
      slashCommand({ text: "fs list", userId: "UBOB", responseUrl: h.fake.responseUrl(listed) }),
    );
    const blocks = (await h.fake.waitForResponse((r) => r.id === listed)).body["blocks"] as {
      type: string;
      block_id?: string;
      elements?: Record<string, unknown>[];
    }[];
    const menu = blocks.find((b) => b.elements?.some((e) => e["action_id"] === "form.change"));
    const opens = h.fake.callsOf("views.open").length;
    const pick = blockAction({
      userId: "UBOB",
      actionId: "form.change",
      value: "",
      messageTs: "1700000000.000200",
      ephemeral: true,
      responseUrl: h.fake.responseUrl(`${listed}-pick`),
    });
    (pick["actions"] as Record<string, unknown>[])[0] = {
      type: "static_select",
      action_id: "form.change",
      block_id: menu?.block_id,
      action_ts: "1700000000.000300",
      selected_option: { text: { type: "plain_text", text: "x" }, value: name },
    };
    await h.driver.interactive(pick);
    const form = (await h.fake.waitForCall("views.open", () => true, opens + 1)).args["view"] as {
      private_metadata: string;
      blocks: { type: string; block_id?: string; element?: Record<string, unknown> }[];
    };
    const values: Record<string, Record<string, unknown>> = {};
    for (const b of form.blocks) {
      const e = b.element ?? {};
      if (b.type !== "input" || b.block_id === undefined) continue;
      values[b.block_id] = {
        array_form_value:
          e["type"] === "checkboxes"
            ? { type: "checkboxes", selected_options: e["initial_options"] ?? [] }
            : e["type"] === "plain_text_input"
              ? { type: "plain_text_input", value: e["initial_value"] ?? null }
              : { type: String(e["type"]), selected_option: e["initial_option"] ?? null },
      };
    }
    values["nfsRules"] = { array_form_value: { type: "plain_text_input", value: "*(ro)" } };
    const p = viewSubmission({
      userId: "UBOB",
      callbackId: "array_form",
      privateMetadata: form.private_metadata,
    });
    (p["view"] as { state: { values: unknown } }).state.values = values;
    const preview = JSON.stringify((await h.driver.interactive(p)).body);
    // The dry run of exactly that change on exactly that object: its name whole, no hard limit, no NFS switch.
    expect(preview).toContain("Dry run");
    expect(preview).toContain(`Updates *${name}* on lab-1: NFS export rules`);
    expect(preview).toContain(
      `?${queryOf(`PATCH /api/1.12/file-systems?name=${encodeURIComponent(name).replace(/%20/g, "+")}`)} `,
    );
    expect(preview).not.toMatch(/hard_limit_enabled|v3_enabled/);
  });

  it("Slack markup in a form's value is kept as typed, not cleaned as if Slack had sent it", async () => {
    const name = "R&amp;D <lab|y> &lt;";
    const n = made();
    const done = await submitForm({ name, size: "1T" });
    expect(done.response_action).toBe("clear");
    await announced(n);
    expect(sim.state.fileSystems.has(name)).toBe(true);
    expect(sim.state.fileSystems.has("R&D y <")).toBe(false);
  });

  it("a form's value no quote can carry is refused beside its field, and nothing is sent", async () => {
    const before = posts();
    const answer = await submitForm({ name: UNCARRIABLE, size: "1T" });
    expect(answer.response_action).toBe("errors");
    expect(answer.errors?.["name"]).toMatch(/cannot be passed as one word/);
    expect(posts()).toBe(before);
  });

  it("a workflow step's name that reads as options is one name: made as named, with no option nobody chose", async () => {
    const name = injected("stepx");
    const mine = h.fake.callsOf("chat.postEphemeral").filter((c) => c.args["user"] === "UBOB").length;
    const id = await runWorkflowStep(h, stepIdOf("fs create"), {
      name,
      size: "1T",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    // The requester Slack vouched for confirms the change, as every workflow change waits for them.
    const ask = await h.fake.waitForCall("chat.postEphemeral", (c) => c.args["user"] === "UBOB", mine + 1);
    const confirm = cardButton(ask, "confirm");
    await h.driver.interactive(
      blockAction({
        actionId: confirm.action_id,
        value: confirm.value,
        userId: "UBOB",
        messageTs: "7.000001",
        ephemeral: true,
        responseUrl: h.fake.responseUrl(`vw-confirm-${id}`),
      }),
    );
    await stepCompleted(h, id, "functions.completeSuccess");
    expectMadeAsNamed(sim, name, "stepx");
  });

  it("a workflow step's value no quote can carry fails the step naming its input, and nothing is sent", async () => {
    const before = posts();
    const id = await runWorkflowStep(h, stepIdOf("fs create"), {
      name: UNCARRIABLE,
      size: "1T",
      requester: vouched("UBOB"),
      channel: "C1",
    });
    const failed = await stepCompleted(h, id, "functions.completeError");
    expect(String(failed.args["error"])).toMatch(/^• <name>: .*cannot be passed as one word/);
    expect(posts()).toBe(before);
  });
});

describe("values as words: MCP", () => {
  it("a tool argument that reads as options is one value; one no quote can carry is refused", async () => {
    const w = await startMcpWorld();
    try {
      const sim = w.h.sims.get("lab-1");
      if (!sim) throw new Error("no lab-1");
      const client = await w.connect(TOKENS.ops);
      const name = injected("mcpx");
      const r = await client.callTool({ name: "fs_create", arguments: { name, size: "1T" } });
      expect(r.isError, textOfResult(r)).toBeFalsy();
      await w.h.click("bob", w.cards, "Approve");
      expectMadeAsNamed(sim, name, "mcpx");

      const refused = await client.callTool({
        name: "fs_create",
        arguments: { name: UNCARRIABLE, size: "1T" },
      });
      expect(refused.isError).toBe(true);
      expect(textOfResult(refused)).toMatch(/name: .*cannot be passed as one word/);
      expect(sim.state.fileSystems.has(UNCARRIABLE)).toBe(false);
    } finally {
      await w.close();
    }
  });
});
