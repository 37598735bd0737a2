/**
 * A list's Create and Change offers, through Bolt's real HTTP receiver, the fake Slack Web API (which validates
 * the menu and button as Slack documents them) and the demo simulator: an operator's `fs list` carries a Create
 * button and a Change menu of the listed names; Create opens the create form, a name picked from Change opens
 * the update form prefilled from that object as the array returns it; a viewer gets neither, and a viewer's
 * forged click is refused by the same policy; the console's text answer is the same as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { withFormOffers } from "../../src/core/catalogue/form-offers.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { renderText } from "../../src/local/text-render.js";
import type { Simulator } from "../../src/simulator/index.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type Block = Record<string, unknown> & { elements?: Record<string, unknown>[] };

describe("Create and Change on list answers", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"]);
    ({ h, sim } = world);
  });

  afterAll(async () => world?.close());

  /** `/array <text>` as `user`; the blocks Slack accepted on the response URL. */
  async function list(text: string, user: string): Promise<Block[]> {
    const id = `list-${Math.random()}`;
    await h.driver.command(slashCommand({ text, userId: user, responseUrl: h.fake.responseUrl(id) }));
    const r = await h.fake.waitForResponse((x) => x.id === id);
    const blocks = r.body["blocks"] as Block[];
    expect(blockKitViolations(blocks)).toEqual([]);
    return blocks;
  }

  const offers = (blocks: Block[]): Record<string, unknown>[] =>
    blocks
      .filter((b) => b["type"] === "actions")
      .flatMap((b) =>
        (b.elements ?? []).map((e): Record<string, unknown> => ({ ...e, block_id: b["block_id"] })),
      )
      .filter((e) => String(e["action_id"]).startsWith("form."));

  /** A click on an offer (a button, or a menu's pick) as `user`; the view Slack was asked to open, if any. */
  async function click(user: string, action: Record<string, unknown>) {
    const before = h.fake.callsOf("views.open").length;
    const respondId = `click-${Math.random()}`;
    const payload = blockAction({
      userId: user,
      actionId: String(action["action_id"]),
      value: String(action["value"] ?? ""),
      messageTs: "1700000000.000100",
      ephemeral: true,
      responseUrl: h.fake.responseUrl(respondId),
    });
    (payload["actions"] as Record<string, unknown>[])[0] = {
      action_ts: `${Date.now() / 1000}`,
      ...action,
    };
    await h.driver.interactive(payload);
    return { before, respondId };
  }

  it("an operator's list offers Create and a Change menu of the listed names", async () => {
    const blocks = await list("fs list", "UBOB");
    expect(blocks.some((b) => b["type"] === "data_table")).toBe(true);
    const found = offers(blocks);
    const create = found.find((e) => e["action_id"] === "form.create");
    const change = found.find((e) => e["action_id"] === "form.change") as
      | { type: string; options: { value: string }[] }
      | undefined;
    expect(create?.["type"]).toBe("button");
    expect(change?.type).toBe("static_select");
    expect(change?.options.map((o) => o.value).sort()).toEqual(
      [...sim.state.fileSystems.values()]
        .filter((f) => !f.destroyed)
        .map((f) => f.name)
        .sort(),
    );
  });

  it("Create opens the create form; a name picked from Change opens the update form prefilled from the array", async () => {
    const found = offers(await list("fs list", "UBOB"));
    const create = found.find((e) => e["action_id"] === "form.create") ?? {};
    const c = await click("UBOB", { type: "button", action_id: "form.create", value: create["value"] });
    const opened = await h.fake.waitForCall("views.open", () => true, c.before + 1);
    const view = opened.args["view"] as { private_metadata: string; blocks: Block[] };
    expect(JSON.parse(view.private_metadata).path).toBe("fs create");
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);

    const change = found.find((e) => e["action_id"] === "form.change") ?? {};
    const fs = sim.state.fileSystems.get("scratch");
    expect(fs).toBeDefined();
    const d = await click("UBOB", {
      type: "static_select",
      action_id: "form.change",
      block_id: change["block_id"],
      selected_option: { text: { type: "plain_text", text: "scratch" }, value: "scratch" },
    });
    const again = await h.fake.waitForCall("views.open", () => true, d.before + 1);
    const form = again.args["view"] as { private_metadata: string; blocks: Block[] };
    expect(JSON.parse(form.private_metadata).path).toBe("fs update");
    expect(blockKitViolations(form.blocks, "view")).toEqual([]);
    const el = (key: string) =>
      (form.blocks.find((b) => b["block_id"] === key)?.["element"] ?? {}) as Record<string, unknown>;
    expect(el("name")["initial_option"]).toMatchObject({ value: "scratch" });
    expect(el("nfsRules")["initial_value"]).toBe(fs?.nfs.rules);
    // The form as prefilled is the object as it is: submitted unchanged, the command says nothing would change.
    const values: Record<string, Record<string, unknown>> = {};
    for (const b of form.blocks) {
      const e = (b["element"] ?? {}) as Record<string, unknown>;
      if (typeof b["block_id"] !== "string" || b["type"] !== "input") continue;
      values[b["block_id"]] = {
        array_form_value:
          e["type"] === "checkboxes"
            ? { type: "checkboxes", selected_options: e["initial_options"] ?? [] }
            : e["type"] === "plain_text_input"
              ? { type: "plain_text_input", value: e["initial_value"] ?? null }
              : { type: String(e["type"]), selected_option: e["initial_option"] ?? null },
      };
    }
    const p = viewSubmission({
      userId: "UBOB",
      callbackId: "array_form",
      privateMetadata: form.private_metadata,
    });
    (p["view"] as { state: { values: unknown } }).state.values = values;
    const unchanged = await h.driver.interactive(p);
    expect(JSON.stringify(unchanged.body)).toContain("Nothing to change on scratch");
    // One value changed, and the rest as they were: the dry run of exactly that change.
    values["nfsRules"] = { array_form_value: { type: "plain_text_input", value: "*(ro)" } };
    const changed = await h.driver.interactive(p);
    expect(changed.body).toMatchObject({ response_action: "update" });
    expect(JSON.stringify(changed.body)).toContain("fs update scratch");
    // A switch says the object's current state in its hint (ticking turns on; an untick sends nothing).
    const hint = (form.blocks.find((b) => b["block_id"] === "hardLimit")?.["hint"] ?? {}) as {
      text?: string;
    };
    expect(hint.text).toMatch(fs?.hard_limit_enabled ? /^Now on\./ : /^Now off\./);
    expect(el("hardLimit")["initial_options"]).toBeUndefined();
  });

  it("a viewer's list offers no change, and a viewer's forged click is refused by the same policy", async () => {
    const blocks = await list("fs list", "UCAROL");
    expect(blocks.some((b) => b["type"] === "data_table")).toBe(true);
    expect(offers(blocks)).toEqual([]);

    const c = await click("UCAROL", {
      type: "button",
      action_id: "form.create",
      value: JSON.stringify({ path: "fs create", array: "lab-1" }),
    });
    const refused = await h.fake.waitForResponse((r) => r.id === c.respondId);
    expect(String(refused.body["text"])).toMatch(/needs the operator role/);
    expect(h.fake.callsOf("views.open")).toHaveLength(c.before);
  });

  it("the console shows a list's answer the same with or without offers", () => {
    const registry = createRegistry(RESOURCES);
    const entry = registry.all().find((e) => e.path === "fs list");
    if (!entry) throw new Error("fs list is not in the registry");
    const msg = {
      text: "2 file systems",
      blocks: [
        {
          type: "table" as const,
          columns: [{ key: "name", label: "Name" }],
          rows: [{ name: "a" }, { name: "b" }],
        },
      ],
    };
    const offered = withFormOffers(registry, entry, "operator", "lab-1", msg);
    expect(offered.forms?.map((f) => f.path)).toEqual(["fs create", "fs update"]);
    expect(renderText(offered)).toEqual(renderText(msg));
  });
});
