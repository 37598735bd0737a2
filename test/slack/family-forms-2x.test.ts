/**
 * The forms of the first-class REST 2.x families (issue 42), through Bolt's real HTTP receiver, the fake Slack
 * Web API (which checks views as Slack documents them) and the demo simulator pinned to 2.x beside a 1.x array:
 * `/array nfs-export-policy rule create` alone opens a form whose fields read in a person's order, with menus of
 * the family's own policies and of the model's values; its preview shows the exact request and the clients the
 * rule lets in; Request sends it through the same gate and the array has the rule. A QoS limit's form is titled
 * as people ask for it and takes units as options do. A viewer gets no form; on a 1.x array the form says which
 * version has it and the preview refuses beside the field, sending nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { formFor } from "../../src/core/catalogue/forms.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { LIMITS } from "../../src/slack/limits.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockAction, blockSuggestion, slashCommand, viewSubmission } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type View = { title: { text: string }; private_metadata: string; blocks: Record<string, unknown>[] };
type Element = { type: string; action_id?: string; options?: { value: string }[] };

describe("forms of the REST 2.x families", () => {
  let world: PipelineWorld;
  let h: Harness;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], undefined, {}, undefined, ["old-1"], {
      "lab-1": "2.0-2.28",
      "old-1": "1.0-1.12",
    });
    ({ h } = world);
  });
  afterAll(async () => world?.close());

  const changes = (array: string) =>
    Object.entries(world.sims.get(array)?.control.stats().requests ?? {})
      .filter(([k]) => !k.startsWith("GET "))
      .reduce((n, [, v]) => n + v, 0);

  /** `/array <text>` as `user`; the view Slack was asked to open, or undefined with the answer when none was. */
  async function typed(text: string, user = "UBOB") {
    const before = h.fake.callsOf("views.open").length;
    const id = `f-${Math.random()}`;
    await h.driver.command(slashCommand({ text, userId: user, responseUrl: h.fake.responseUrl(id) }));
    const answered = await Promise.race([
      h.fake.waitForCall("views.open", () => true, before + 1).then((c) => c.args["view"] as View),
      h.fake.waitForResponse((r) => r.id === id).then((r) => JSON.stringify(r.body)),
    ]);
    if (typeof answered !== "string") expect(blockKitViolations(answered.blocks, "view")).toEqual([]);
    return answered;
  }

  const element = (view: View, field: string): Element =>
    ((view.blocks.find((b) => b["block_id"] === field) as { element?: Element } | undefined)?.element ?? {
      type: "missing",
    }) as Element;
  const fieldIds = (view: View) => view.blocks.map((b) => b["block_id"]).filter(Boolean);

  function submit(view: View, text: Record<string, string>, picked: Record<string, string> = {}) {
    const p = viewSubmission({
      userId: "UBOB",
      callbackId: "array_form",
      privateMetadata: view.private_metadata,
      values: Object.fromEntries(Object.entries(text).map(([k, v]) => [k, { array_form_value: v }])),
    });
    const state = (p["view"] as { state: { values: Record<string, unknown> } }).state.values;
    for (const [k, v] of Object.entries(picked))
      state[k] = { array_form_value: { type: "static_select", selected_option: { value: v } } };
    return h.driver.interactive(p);
  }

  it("an NFS export rule's form: fields in a person's order, menus of the family's policies and the model's values", async () => {
    const view = (await typed("nfs-export-policy rule create")) as View;
    expect(view.title.text).toBe("Add an NFS export rule");
    expect(fieldIds(view).slice(0, 5)).toEqual(["policy", "client", "permission", "access", "anonuid"]);
    expect(element(view, "permission").options?.map((o) => o.value)).toEqual(["rw", "ro"]);
    expect(element(view, "access").type).toBe("static_select");
    const menu = await h.driver.interactive(
      blockSuggestion({
        userId: "UBOB",
        blockId: "policy",
        actionId: element(view, "policy").action_id,
        value: "",
        privateMetadata: view.private_metadata,
      }),
    );
    const names = (menu.body as { options: { value: string }[] }).options.map((o) => o.value);
    // The NFS export policies, not the snapshot policies `policy` names on 1.x.
    expect(names).toEqual(expect.arrayContaining(["default", "lab-clients"]));
    expect(names.some((n) => world.sim.state.policies.has(n))).toBe(false);
  });

  it("previews the exact request and the clients it adds, then Request adds the rule on the array", async () => {
    const view = (await typed("nfs-export-policy rule create")) as View;
    const before = changes("lab-1");
    const preview = await submit(
      view,
      { client: "10.99.0.0/16" },
      { policy: "lab-clients", permission: "rw" },
    );
    const body = preview.body as { response_action: string; view: View };
    expect(body.response_action).toBe("update");
    const shown = JSON.stringify(body.view.blocks);
    expect(shown).toContain(
      'POST /api/2.28/nfs-export-policies/rules?policy_names=lab-clients {\\"client\\":\\"10.99.0.0/16\\",\\"permission\\":\\"rw\\"}',
    );
    expect(shown).toMatch(/Clients added[^"]*10\.99\.0\.0\/16 \(rw/);
    expect(changes("lab-1")).toBe(before);

    const done = await submit(body.view, {});
    expect((done.body as { response_action: string }).response_action).toBe("clear");
    await h.fake.waitForCall("chat.postMessage", (c) => JSON.stringify(c.args).includes("10.99.0.0/16"));
    const rules = await world.pool
      .get("lab-1")
      .get<{ client?: string; permission?: string }>("/nfs-export-policies/rules", {
        query: { policy_names: ["lab-clients"] },
      });
    expect(rules.items.find((r) => r.client === "10.99.0.0/16")?.permission).toBe("rw");
  });

  it("a QoS limit's form is named as people ask for it and takes a size as the options read", async () => {
    const view = (await typed("qos-policy update")) as View;
    expect(view.title.text).toBe("Set a QoS limit");
    expect(fieldIds(view).slice(0, 3)).toEqual(["name", "maxTotalBytesPerSec", "maxTotalOpsPerSec"]);
    expect(JSON.stringify(view.blocks)).toContain("Bandwidth limit");
    const preview = await submit(view, { maxTotalBytesPerSec: "1G" }, { name: "qos-gold" });
    const shown = JSON.stringify((preview.body as { view: View }).view.blocks);
    expect(shown).toContain(
      'PATCH /api/2.28/qos-policies?names=qos-gold {\\"max_total_bytes_per_sec\\":1073741824}',
    );
  });

  it("a QoS policy list offers Change; picking one opens its form prefilled with its limits as options read", async () => {
    const id = `list-${Math.random()}`;
    await h.driver.command(
      slashCommand({ text: "qos-policy list", userId: "UBOB", responseUrl: h.fake.responseUrl(id) }),
    );
    const blocks = (await h.fake.waitForResponse((r) => r.id === id)).body["blocks"] as Record<
      string,
      unknown
    >[];
    const actions = blocks.filter((b) => b["type"] === "actions");
    const change = actions
      .flatMap((b) =>
        ((b["elements"] ?? []) as Record<string, unknown>[]).map(
          (e): Record<string, unknown> => ({ ...e, block: b }),
        ),
      )
      .find((e) => e["action_id"] === "form.change");
    expect(change).toBeDefined();
    const before = h.fake.callsOf("views.open").length;
    const payload = blockAction({
      userId: "UBOB",
      actionId: "form.change",
      value: "",
      messageTs: "1700000000.000100",
      ephemeral: true,
      responseUrl: h.fake.responseUrl(`click-${Math.random()}`),
    });
    (payload["actions"] as Record<string, unknown>[])[0] = {
      action_ts: `${Date.now() / 1000}`,
      type: "static_select",
      action_id: "form.change",
      block_id: (change?.["block"] as Record<string, unknown> | undefined)?.["block_id"],
      selected_option: { text: { type: "plain_text", text: "qos-bronze" }, value: "qos-bronze" },
    };
    await h.driver.interactive(payload);
    const form = (await h.fake.waitForCall("views.open", () => true, before + 1)).args["view"] as View;
    expect(blockKitViolations(form.blocks, "view")).toEqual([]);
    const initial = (key: string) =>
      (form.blocks.find((b) => b["block_id"] === key)?.["element"] as Record<string, unknown> | undefined)?.[
        "initial_value"
      ];
    // The demo's qos-bronze: 3 MB/s (decimal, so exact only in bytes) and 5,000 ops/s, as the options take them.
    expect(initial("maxTotalBytesPerSec")).toBe("3000000B");
    expect(initial("maxTotalOpsPerSec")).toBe("5000");
  });

  it("a hold's form goes through its gate: Request posts an approval card, and the array holds nothing yet", async () => {
    const view = (await typed("legal-hold held-entity create")) as View;
    expect(view.title.text).toBe("Put on legal hold");
    expect(element(view, "name").type).toBe("external_select");
    expect(element(view, "fileSystem").type).toBe("external_select");
    const held = async () =>
      (
        await world.pool.get("lab-1").get<{ file_system?: { name?: string } }>("/legal-holds/held-entities", {
          query: { names: ["hold-audit-2026"] },
        })
      ).items.filter((i) => i.file_system?.name === "projects").length;
    const before = await held();
    const preview = await submit(view, {}, { name: "hold-audit-2026", fileSystem: "projects" });
    const body = preview.body as { response_action: string; view: View };
    expect(JSON.stringify(body.view.blocks)).toContain(
      "POST /api/2.28/legal-holds/held-entities?names=hold-audit-2026&file_system_names=projects",
    );
    const done = await submit(body.view, {});
    expect((done.body as { response_action: string }).response_action).toBe("clear");
    const card = await h.fake.waitForCall("chat.postMessage", (c) =>
      /Approval needed[^"]*held path hold-audit-2026/.test(JSON.stringify(c.args)),
    );
    expect(JSON.stringify(card.args)).toContain("admin");
    expect(await held()).toBe(before);
  });

  it("every title a form layout gives fits a modal's title whole", () => {
    const registry = createRegistry(RESOURCES);
    const titled = registry.all().filter((e) => e.command.form?.title !== undefined);
    expect(titled.length).toBeGreaterThan(0);
    for (const e of titled)
      expect(formFor(registry, e.path)?.title.length, e.path).toBeLessThanOrEqual(LIMITS.modalTitle);
  });

  it("a viewer gets no form for a change, but the role it needs", async () => {
    const opened = h.fake.callsOf("views.open").length;
    const answer = await typed("nfs-export-policy rule create", "UCAROL");
    expect(answer).toMatch(/needs the operator role on array lab-1; you are a viewer/);
    expect(h.fake.callsOf("views.open").length).toBe(opened);
  });

  it("on a 1.x array the form says which version has it, and the preview refuses beside a field", async () => {
    const view = (await typed("maintenance-window create --array old-1", "UBOB")) as View | string;
    // The typed line has more than the path: it runs (and is refused for its missing name), no form.
    expect(typeof view).toBe("string");
    const form = (await typed("nfs-export-policy rule create")) as View;
    expect(JSON.stringify(form.blocks)).toContain("Only arrays on REST 2.3 or newer have this");
    const before = changes("old-1");
    const answer = await submit(form, { client: "10.1.0.0/16" }, { policy: "lab-clients", array: "old-1" });
    const body = answer.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe("errors");
    expect(Object.values(body.errors).join(" ")).toMatch(/REST 2\.3.*old-1 runs 1\.12/);
    expect(changes("old-1")).toBe(before);
  });
});
