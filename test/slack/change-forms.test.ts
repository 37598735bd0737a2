/**
 * The forms cover the change (issue 46), through Bolt's real HTTP receiver and the fake Slack Web API: `fs
 * update` has a policy menu and an export-rules input, `bucket create` its account menu and versioning choice,
 * `replica-link fs create` its remote and policy menus (`replica-link bucket create` its remote menu), every menu
 * filled from the array; a bad value in any of
 * them (malformed, or well formed but not on the array) comes back as `response_action: errors` beside that
 * field and nothing is sent; a filled `fs update` form
 * previews exactly the requests it then sends. (The fs create form: fs-create-form.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockSuggestion, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { onWire, requestCount } from "../helpers/wire.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type View = { private_metadata: string; blocks: Record<string, unknown>[] };
type Element = { type: string; action_id?: string; options?: { value: string }[] };

describe("the change forms' inputs: filled from the array, errors beside the field", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"]);
    ({ h, sim } = world);
  });
  afterAll(async () => world?.close());

  /** Every changing request the simulator answered so far. */
  const changes = () =>
    Object.entries(sim.control.stats().requests)
      .filter(([k]) => !k.startsWith("GET "))
      .reduce((n, [, v]) => n + v, 0);

  async function openForm(path: string): Promise<View> {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({ text: path, userId: "UBOB", responseUrl: h.fake.responseUrl(`f-${Math.random()}`) }),
    );
    const view = (await h.fake.waitForCall("views.open", () => true, before + 1)).args["view"] as View;
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    return view;
  }

  const element = (view: View, field: string): Element =>
    ((view.blocks.find((b) => b["block_id"] === field) as { element?: Element } | undefined)?.element ?? {
      type: "missing",
    }) as Element;

  /** What the menu of `field` offers with nothing typed: read from the array by the bot. */
  async function offered(view: View, field: string): Promise<string[]> {
    expect(element(view, field).type, field).toBe("external_select");
    const answer = await h.driver.interactive(
      blockSuggestion({
        userId: "UBOB",
        blockId: field,
        actionId: element(view, field).action_id,
        value: "",
        privateMetadata: view.private_metadata,
      }),
    );
    return (answer.body as { options: { value: string }[] }).options.map((o) => o.value);
  }

  /** A submission: typed text, and picked values (menus and choices) as Slack sends a selected option. */
  function submit(view: View, typed: Record<string, string>, picked: Record<string, string> = {}) {
    const p = viewSubmission({
      userId: "UBOB",
      callbackId: "array_form",
      privateMetadata: view.private_metadata,
      values: Object.fromEntries(Object.entries(typed).map(([k, v]) => [k, { array_form_value: v }])),
    });
    const state = (p["view"] as { state: { values: Record<string, unknown> } }).state.values;
    for (const [k, v] of Object.entries(picked))
      state[k] = { array_form_value: { type: "static_select", selected_option: { value: v } } };
    return h.driver.interactive(p);
  }

  /** Submits a bad value and expects Slack to be told to show an error beside that field alone. */
  async function refusedBeside(
    path: string,
    field: string,
    typed: Record<string, string>,
    picked: Record<string, string> = {},
  ) {
    const before = changes();
    const answer = await submit(await openForm(path), typed, picked);
    const body = answer.body as { response_action?: string; errors?: Record<string, string> };
    expect(body.response_action, `${path} ${field}`).toBe("errors");
    expect(Object.keys(body.errors ?? {}), `${path} ${field}`).toEqual([field]);
    expect(changes()).toBe(before);
  }

  const policies = () => [...sim.state.policies.keys()].sort();
  const anFs = () => [...sim.state.fileSystems.values()].find((f) => !f.destroyed)?.name ?? "";

  it("fs update: a policy menu of the array's policies and an export-rules input", async () => {
    const view = await openForm("fs update");
    expect(element(view, "nfsRules").type).toBe("plain_text_input");
    expect(policies().length).toBeGreaterThan(0);
    expect((await offered(view, "policy")).sort()).toEqual(policies());
  });

  it("fs update: a bad policy or export rule comes back beside its field", async () => {
    await refusedBeside("fs update", "policy", {}, { name: anFs(), policy: "a,b" });
    await refusedBeside("fs update", "nfsRules", { nfsRules: "*(rw)\u0007" }, { name: anFs() });
    // Well formed, but not on the array: the array-checked refusal names it, so it goes beside its field too.
    await refusedBeside("fs update", "policy", {}, { name: anFs(), policy: "no-such-policy" });
  });

  it("fs update: the preview shows exactly what is sent, and the request sends it", async () => {
    const members = new Set([...sim.state.policies.values()].flatMap((p) => [...p.members]));
    const fs = [...sim.state.fileSystems.values()].find((f) => !f.destroyed && !members.has(f.name))?.name;
    const policy = policies()[0] ?? "";
    expect(fs).toBeDefined();
    const preview = await submit(await openForm("fs update"), {}, { name: fs ?? "", policy });
    const body = preview.body as { response_action: string; view: View };
    expect(body.response_action).toBe("update");
    const shown = JSON.stringify(body.view.blocks);
    const expected = onWire(`POST /api/1.12/policies/file-systems?policy_names=${policy}&member_names=${fs}`);
    expect(shown).toContain(expected);
    expect(shown).not.toContain("PATCH /api/");
    const sent = () => requestCount(sim.control.stats(), "POST /api/1.12/policies/file-systems");
    const before = sent();
    const done = await submit(body.view, {});
    expect((done.body as { response_action: string }).response_action).toBe("clear");
    await h.fake.waitForCall("chat.postMessage", (c) => JSON.stringify(c.args).includes(`policy ${policy}`));
    expect(sent()).toBe(before + 1);
    expect(sim.state.policies.get(policy)?.members.has(fs ?? "")).toBe(true);
  });

  it("bucket create: an account menu of the array's accounts and a versioning choice", async () => {
    const view = await openForm("bucket create");
    expect((await offered(view, "account")).sort()).toEqual([...sim.state.accounts.keys()].sort());
    const versioning = element(view, "versioning");
    expect(versioning.type).toBe("static_select");
    expect(versioning.options?.map((o) => o.value)).toEqual(["enabled", "suspended"]);
  });

  it("bucket create: a bad account or versioning comes back beside its field", async () => {
    const account = [...sim.state.accounts.keys()][0] ?? "";
    await refusedBeside("bucket create", "account", { name: "formed-bucket" }, { account: "a,b" });
    await refusedBeside(
      "bucket create",
      "account",
      { name: "formed-bucket" },
      { account: "no-such-account" },
    );
    await refusedBeside(
      "bucket create",
      "versioning",
      { name: "formed-bucket" },
      { account, versioning: "sometimes" },
    );
  });

  it("replica-link fs create: remote and policy menus filled from the array", async () => {
    const view = await openForm("replica-link fs create");
    const remotes = [...sim.state.arrayConnections.values()].map((c) => c.remote.name).sort();
    expect(remotes.length).toBeGreaterThan(0);
    expect((await offered(view, "remote")).sort()).toEqual(remotes);
    expect((await offered(view, "policy")).sort()).toEqual(policies());
  });

  it("replica-link fs create: a bad remote or policy comes back beside its field", async () => {
    const remote = [...sim.state.arrayConnections.values()][0]?.remote.name ?? "";
    await refusedBeside("replica-link fs create", "remote", {}, { fs: anFs(), remote: "a,b" });
    await refusedBeside("replica-link fs create", "remote", {}, { fs: anFs(), remote: "no-such-array" });
    await refusedBeside("replica-link fs create", "policy", {}, { fs: anFs(), remote, policy: "a,b" });
  });

  it("replica-link bucket create: a remote menu of the array's connections, a bad remote beside its field", async () => {
    const view = await openForm("replica-link bucket create");
    const remotes = [...sim.state.arrayConnections.values()].map((c) => c.remote.name).sort();
    expect((await offered(view, "remote")).sort()).toEqual(remotes);
    const bucket = [...sim.state.buckets.keys()][0] ?? "";
    await refusedBeside(
      "replica-link bucket create",
      "remote",
      { credentials: `${remotes[0]}/repl-creds`, remoteBucket: "formed-dr" },
      { bucket, remote: "a,b" },
    );
  });
});
