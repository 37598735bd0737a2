/**
 * Forms for changes, through Bolt's real HTTP receiver, the fake Slack Web API (which checks views as Slack
 * documents them) and the simulator: `/array fs create` alone opens a form built from the command's arguments;
 * the first submit shows the dry run's impact and exact request in the modal; the second runs the same line
 * through the same gate as a typed command; bad values come back beside their field; a closed form leaves
 * nothing behind; a viewer gets no form, and a forged submission is held to the same policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PendingStore } from "../../src/core/approvals/pending-store.js";
import type { Simulator } from "../../src/simulator/index.js";
import { blankFileSystem } from "../../src/simulator/models/file-system.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockSuggestion, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { onWire, requestCount } from "../helpers/wire.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

describe("forms for changes", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let store: PendingStore;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"]);
    ({ h, sim, store } = world);
  });

  afterAll(async () => world?.close());

  const posts = () => requestCount(sim.control.stats(), "POST /api/1.12/file-systems");

  /** Opens the fs create form as `user`; returns the view Slack was asked to open. */
  async function openForm(user: string) {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({
        text: "fs create",
        userId: user,
        responseUrl: h.fake.responseUrl(`f-${Math.random()}`),
      }),
    );
    const call = await h.fake.waitForCall("views.open", () => true, before + 1);
    return call.args["view"] as {
      callback_id: string;
      private_metadata: string;
      blocks: Record<string, unknown>[];
    };
  }

  /** A submission of the form with text inputs and the NFS box ticked. */
  function submission(
    user: string,
    meta: string,
    values: Record<string, string>,
    nfs: boolean,
    viewId?: string,
  ) {
    const p = viewSubmission({
      ...(viewId ? { viewId } : {}),
      userId: user,
      callbackId: "array_form",
      privateMetadata: meta,
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { array_form_value: v }])),
    });
    const view = p["view"] as { state: { values: Record<string, unknown> } };
    view.state.values["nfs"] = {
      array_form_value: { type: "checkboxes", selected_options: nfs ? [{ value: "on" }] : [] },
    };
    return p;
  }

  it("opens a form, previews the exact request, then requests it through the same gate", async () => {
    const view = await openForm("UBOB");
    expect(view.callback_id).toBe("array_form");
    expect(view.blocks.map((b) => b["block_id"]).filter(Boolean)).toEqual(
      expect.arrayContaining(["name", "size", "nfs", "hardLimit"]),
    );
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);

    const preview = await h.driver.interactive(
      submission("UBOB", view.private_metadata, { name: "from-form", size: "2T" }, true),
    );
    const body = preview.body as {
      response_action: string;
      view: { blocks: unknown[]; private_metadata: string };
    };
    expect(body.response_action).toBe("update");
    const shown = JSON.stringify(body.view.blocks);
    // The request line up to the name: 1.x carries it first in the body, 2.x as `?names=` before the body.
    const named = onWire('POST /api/1.12/file-systems {"name":"from-form"}').slice(0, -1);
    expect(shown).toContain(JSON.stringify(named).slice(1, -1));
    expect(shown).toContain("fs create from-form 2T --nfs");
    expect(blockKitViolations(body.view.blocks, "view")).toEqual([]);
    expect(posts()).toBe(0);

    const done = await h.driver.interactive(submission("UBOB", body.view.private_metadata, {}, false));
    expect((done.body as { response_action: string }).response_action).toBe("clear");
    await h.fake.waitForCall("chat.postMessage", (c) => JSON.stringify(c.args).includes("from-form"));
    expect(sim.state.fileSystems.get("from-form")?.provisioned).toBe(2 * 2 ** 40);
  });

  it("a bad value comes back beside its field and nothing is sent", async () => {
    const view = await openForm("UBOB");
    const before = posts();
    const answer = await h.driver.interactive(
      submission("UBOB", view.private_metadata, { name: "bad-size", size: "lots" }, false),
    );
    const body = answer.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe("errors");
    expect(Object.keys(body.errors)).toContain("size");
    expect(posts()).toBe(before);
  });

  it("a viewer gets no form; a forged submission is refused by the same policy and leaves nothing pending", async () => {
    const opened = h.fake.callsOf("views.open").length;
    const id = `viewer-${Math.random()}`;
    await h.driver.command(
      slashCommand({ text: "fs create", userId: "UCAROL", responseUrl: h.fake.responseUrl(id) }),
    );
    const refused = await h.fake.waitForResponse((r) => r.id === id);
    expect(JSON.stringify(refused.body)).toMatch(/needs the operator role/);
    expect(h.fake.callsOf("views.open").length).toBe(opened);
    // The form's metadata as an operator's form carries it, submitted by the viewer.
    const view = await openForm("UBOB");
    const answer = await h.driver.interactive(
      submission("UCAROL", view.private_metadata, { name: "viewer-fs", size: "1T" }, false),
    );
    const body = answer.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe("errors");
    expect(Object.values(body.errors).join(" ")).toMatch(/operator/);
    expect(await store.listOpen()).toEqual([]);
    expect(sim.state.fileSystems.has("viewer-fs")).toBe(false);
  });

  it("a change on an existing object picks its name from a menu that searches the array, as the person", async () => {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({
        text: "fs resize",
        userId: "UBOB",
        responseUrl: h.fake.responseUrl(`f-${Math.random()}`),
      }),
    );
    const call = await h.fake.waitForCall("views.open", () => true, before + 1);
    const view = call.args["view"] as { private_metadata: string; blocks: Record<string, unknown>[] };
    const nameBlock = view.blocks.find((b) => b["block_id"] === "name") as {
      element: Record<string, unknown>;
    };
    expect(nameBlock.element["type"]).toBe("external_select");
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);

    const suggest = (user: string, value: string) =>
      h.driver.interactive(
        blockSuggestion({
          userId: user,
          blockId: "name",
          actionId: nameBlock.element["action_id"],
          value,
          privateMetadata: view.private_metadata,
        }),
      );
    const answer = await suggest("UBOB", "scr");
    const options = (answer.body as { options: { value: string }[] }).options.map((o) => o.value);
    expect(options[0]).toBe("scratch");
    expect(options.every((o) => o.includes("scr"))).toBe(true);
  });

  /** Opens the form of `path` as `user` (typed with nothing after it); returns the view. */
  async function openPath(path: string, user = "UBOB") {
    const before = h.fake.callsOf("views.open").length;
    await h.driver.command(
      slashCommand({ text: path, userId: user, responseUrl: h.fake.responseUrl(`f-${Math.random()}`) }),
    );
    const call = await h.fake.waitForCall("views.open", () => true, before + 1);
    return call.args["view"] as { private_metadata: string; blocks: Record<string, unknown>[] };
  }

  /** What Slack's menu of `field` offers when `value` is typed into it. */
  async function offered(path: string, field: string, value: string, user = "UBOB") {
    const view = await openPath(path, user);
    const block = view.blocks.find((b) => b["block_id"] === field) as
      | { element: Record<string, unknown> }
      | undefined;
    expect(block?.element["type"], `${path} ${field}`).toBe("external_select");
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    const answer = await h.driver.interactive(
      blockSuggestion({
        userId: user,
        blockId: field,
        actionId: block?.element["action_id"],
        value,
        privateMetadata: view.private_metadata,
      }),
    );
    return (answer.body as { options: { value: string }[] }).options.map((o) => o.value);
  }

  it("every argument that names an account, a policy, a remote array or a file system is a menu of the array's", async () => {
    const accounts = [...sim.state.accounts.keys()].sort();
    expect(accounts.length).toBeGreaterThan(0);
    expect(await offered("bucket create", "account", "")).toEqual(accounts);
    const remotes = [...sim.state.arrayConnections.values()].map((c) => c.remote.name).sort();
    expect(remotes.length).toBeGreaterThan(0);
    expect(await offered("replica-link fs create", "remote", "")).toEqual(remotes);
    const policies = [...sim.state.policies.keys()];
    expect(await offered("policy attach", "policy", "")).toEqual(expect.arrayContaining(policies));
    // The typed text filters on the array: only names that contain it, those starting with it first.
    const fs = [...sim.state.fileSystems.keys()];
    const some = fs.find((n) => n.length > 3) ?? "";
    const part = some.slice(1, 4);
    const hits = await offered("quota set", "fs", part);
    expect(hits).toEqual(expect.arrayContaining(fs.filter((n) => n.includes(part))));
    expect(hits.every((n) => n.includes(part))).toBe(true);
  });

  it("text typed into a menu is quoted in the array's filter: quotes and `*` are literal", async () => {
    const odd = "it's*odd";
    sim.state.fileSystems.set(odd, blankFileSystem(sim.state.newId(), odd, sim.state.clock()));
    expect(await offered("quota set", "fs", "it's*")).toEqual([odd]);
    expect(await offered("quota set", "fs", "x' or name='*")).toEqual([]);
    sim.state.fileSystems.delete(odd);
  });

  it("a menu holds at most Slack's 100 options", async () => {
    for (let i = 0; i < 105; i++) {
      const name = `many-${i}`;
      sim.state.fileSystems.set(name, blankFileSystem(sim.state.newId(), name, sim.state.clock()));
    }
    expect(await offered("quota set", "fs", "many-")).toHaveLength(100);
    for (let i = 0; i < 105; i++) sim.state.fileSystems.delete(`many-${i}`);
  });

  it("a Request submitted twice (a retry, a double click) makes one change", async () => {
    const view = await openForm("UBOB");
    const preview = await h.driver.interactive(
      submission("UBOB", view.private_metadata, { name: "twice-fs", size: "1T" }, false, "VTWICE"),
    );
    const meta = (preview.body as { view: { private_metadata: string } }).view.private_metadata;
    const before = posts();
    await Promise.all([
      h.driver.interactive(submission("UBOB", meta, {}, false, "VTWICE")),
      h.driver.interactive(submission("UBOB", meta, {}, false, "VTWICE")),
    ]);
    await h.fake.waitForCall("chat.postMessage", (c) => JSON.stringify(c.args).includes("twice-fs"));
    expect(posts()).toBe(before + 1);
    expect(sim.state.fileSystems.has("twice-fs")).toBe(true);
  });
});
