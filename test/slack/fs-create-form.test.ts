/**
 * The `fs create` form covers the change (issue 46), through Bolt's real HTTP receiver and the fake Slack Web
 * API: it has an export-rules input and a policy menu filled from the array's policies; a filled form previews
 * both requests (the create, then the policy's membership) and is carried out like a typed command; a bad value
 * in either comes back beside its field and nothing is sent. (The bucket create account and replica link remote
 * menus: forms.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockSuggestion, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { onWire, requestCount } from "../helpers/wire.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type View = { private_metadata: string; blocks: Record<string, unknown>[] };

describe("the fs create form: export rules and a policy", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"]);
    ({ h, sim } = world);
  });
  afterAll(async () => world?.close());

  const posts = () => requestCount(sim.control.stats(), "POST /api/1.12/file-systems");

  async function openForm(): Promise<View> {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({
        text: "fs create",
        userId: "UBOB",
        responseUrl: h.fake.responseUrl(`f-${Math.random()}`),
      }),
    );
    return (await h.fake.waitForCall("views.open", () => true, before + 1)).args["view"] as View;
  }

  /** A submission with text inputs and, when given, the policy picked from its menu. */
  function submission(meta: string, values: Record<string, string>, policy?: string) {
    const p = viewSubmission({
      userId: "UBOB",
      callbackId: "array_form",
      privateMetadata: meta,
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { array_form_value: v }])),
    });
    const state = (p["view"] as { state: { values: Record<string, unknown> } }).state.values;
    if (policy !== undefined)
      state["policy"] = { array_form_value: { type: "external_select", selected_option: { value: policy } } };
    return p;
  }

  it("has an export-rules input and a policy menu of the array's policies", async () => {
    const view = await openForm();
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    const block = (id: string) =>
      view.blocks.find((b) => b["block_id"] === id) as { element: Record<string, unknown> };
    expect(block("nfsRules").element["type"]).toBe("plain_text_input");
    expect(block("policy").element["type"]).toBe("external_select");
    const answer = await h.driver.interactive(
      blockSuggestion({
        userId: "UBOB",
        blockId: "policy",
        actionId: block("policy").element["action_id"],
        value: "",
        privateMetadata: view.private_metadata,
      }),
    );
    const offered = (answer.body as { options: { value: string }[] }).options.map((o) => o.value);
    expect(offered).toEqual(expect.arrayContaining([...sim.state.policies.keys()]));
  });

  it("previews both requests, then creates the file system with its rules and policy", async () => {
    const policy = [...sim.state.policies.keys()][0] ?? "";
    const view = await openForm();
    const preview = await h.driver.interactive(
      submission(view.private_metadata, { name: "formed", size: "1T", nfsRules: "10.0.0.0/8(rw)" }, policy),
    );
    const body = preview.body as {
      response_action: string;
      view: { blocks: unknown[]; private_metadata: string };
    };
    expect(body.response_action).toBe("update");
    const shown = JSON.stringify(body.view.blocks);
    expect(shown).toContain(onWire("POST /api/1.12/file-systems"));
    expect(shown).toContain(onWire(`POST /api/1.12/policies/file-systems?policy_names=${policy}`));
    const done = await h.driver.interactive(submission(body.view.private_metadata, {}));
    expect((done.body as { response_action: string }).response_action).toBe("clear");
    await h.fake.waitForCall("chat.postMessage", (c) => JSON.stringify(c.args).includes("formed"));
    expect(sim.state.fileSystems.get("formed")?.nfs?.rules).toBe("10.0.0.0/8(rw)");
  });

  it("a bad policy or export rule comes back beside its field and nothing is sent", async () => {
    const before = posts();
    const view = await openForm();
    const badPolicy = await h.driver.interactive(
      submission(view.private_metadata, { name: "bad-policy", size: "1T" }, "a,b"),
    );
    const errors = (badPolicy.body as { response_action: string; errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toEqual(["policy"]);
    const again = await openForm();
    const badRules = await h.driver.interactive(
      submission(again.private_metadata, { name: "bad-rules", size: "1T", nfsRules: "*(rw)\u0007" }),
    );
    expect(Object.keys((badRules.body as { errors: Record<string, string> }).errors)).toEqual(["nfsRules"]);
    expect(posts()).toBe(before);
  });
});
