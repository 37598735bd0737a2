/**
 * The real thing end to end: Bolt in HTTP mode fed signed requests, the real command pipeline and array pool,
 * simulated arrays over HTTPS, and the fake Slack Web API checking every payload against Block Kit limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { commandLabeler } from "../../src/ops/command-label.js";
import { arrayHealthFrom } from "../../src/ops/readiness.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { type ActionOpts, blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

const TIB = 2 ** 40;
const STORAGE_GROUP = "SSTORAGE";
const APPROVERS_CHANNEL = "CAPPROVERS";

describe("full flow: Slack app + real pipeline + simulated arrays", () => {
  const sims = new Map<string, Simulator>();
  let pool: ArrayPool;
  let h: Harness;
  let seq = 0;

  beforeAll(async () => {
    sims.set("lab-1", await startSimulator({ arrayName: "lab-1", scenario: "demo" }));
    sims.set(
      "big-1",
      await startSimulator({ arrayName: "big-1", scenario: { scale: { fileSystems: 10_000 } } }),
    );
    const resolved = [...sims].map(([name, sim]) =>
      simulatedArrayConfig(name, sim, {
        ...TEST_ARRAY_TUNING,
        timeouts: { ...TEST_ARRAY_TUNING.timeouts, readMs: 20_000 },
      }),
    );
    const config = configSchema.parse({
      arrays: [...sims].map(([name, sim]) => ({ name, address: sim.url, api_token_env: "T" })),
      access: {
        default_role: "none",
        admin: { users: ["UALICE", "UDAVE"], groups: [] },
        operator: { users: [], groups: [STORAGE_GROUP] },
      },
      channels: { default_array: "lab-1" },
      destructive: { approvals_channel: APPROVERS_CHANNEL },
    });
    pool = createArrayPool(resolved, { logger: silentLogger(), sleep: async () => {} });
    const registry = createRegistry(RESOURCES);
    h = await startHarness("http", {
      pipeline: ({ identity }) =>
        createPipeline({
          registry,
          pool,
          config,
          identity,
          store: createMemoryPendingStore(),
          audit: memoryAuditSink(),
          logger: silentLogger(),
          now: Date.now,
        }),
      groupIds: [STORAGE_GROUP],
      commandLabel: commandLabeler(registry),
      arrays: arrayHealthFrom(() => pool.health()),
    });
    h.fake.groups.set(STORAGE_GROUP, ["UBOB"]);
  });

  afterAll(async () => {
    await h?.stop();
    await pool?.close();
    for (const s of sims.values()) await s.close();
  });

  const responseUrl = () => h.fake.responseUrl(`ff-${++seq}`);
  const responseTo = (url: string) => h.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));

  type ButtonJson = { action_id: string; value: string; text: { text: string } };
  const buttonIn = (blocks: unknown, label: string): ButtonJson | undefined =>
    (blocks as { type: string; elements?: ButtonJson[] }[])
      .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
      .find((e) => e.text.text.startsWith(label));
  /** Clicks `button` (a missing one is clicked as empty, which the app refuses). */
  const click = (button: ButtonJson | undefined, opts: Omit<ActionOpts, "actionId" | "value">) =>
    h.driver.interactive(
      blockAction({ actionId: button?.action_id ?? "", value: button?.value ?? "", ...opts }),
    );

  it("a shrink below usage: the card in the channel and the approvers channel, approved by an admin, both copies updated", async () => {
    const fs = () => sims.get("lab-1")?.state.fileSystems.get("builds");
    const before = h.fake.callsOf("chat.postMessage").length;
    const url = responseUrl();
    await h.driver.command(
      slashCommand({ text: "fs resize builds 9T", userId: "UBOB", userName: "bob", responseUrl: url }),
    );
    await h.fake.waitForCall("chat.postMessage", () => true, before + 2);
    const ack = await responseTo(url);
    expect(JSON.stringify(ack.body["blocks"])).toContain(`in this channel and in <#${APPROVERS_CHANNEL}>`);
    const posts = h.fake.callsOf("chat.postMessage").slice(before);
    expect(posts.map((p) => p.args["channel"])).toEqual(["C1", APPROVERS_CHANNEL]);
    for (const p of posts) expect(blockKitViolations(p.args["blocks"])).toEqual([]);
    expect(fs()?.provisioned).toBe(10 * TIB);
    const copies = [...h.fake.messages.values()].filter((m) => JSON.stringify(m.blocks).includes("builds"));
    const ts = copies.find((m) => m.channel === "C1")?.ts ?? "";
    const approverTs = copies.find((m) => m.channel === APPROVERS_CHANNEL)?.ts ?? "";
    expect(approverTs).not.toBe("");
    const approve = buttonIn(posts[0]?.args["blocks"], "Approve");
    expect(approve).toBeDefined();

    // The requester cannot approve their own request.
    const selfUrl = responseUrl();
    await click(approve, { userId: "UBOB", messageTs: ts, responseUrl: selfUrl });
    expect((await responseTo(selfUrl)).body["response_type"]).toBe("ephemeral");
    expect(fs()?.provisioned).toBe(10 * TIB);

    // Approved from the approvers channel's copy: both copies show the result.
    await click(approve, {
      userId: "UALICE",
      userName: "alice",
      channelId: APPROVERS_CHANNEL,
      messageTs: approverTs,
      responseUrl: responseUrl(),
    });
    for (const [channel, at] of [
      ["C1", ts],
      [APPROVERS_CHANNEL, approverTs],
    ] as const) {
      const update = await h.fake.waitForUpdate((u) => u.channel === channel && u.ts === at);
      expect(JSON.stringify(update.blocks)).toContain("Resized *builds* on lab-1");
      expect(JSON.stringify(update.blocks)).toContain("approved by alice");
      // The copy clicked is replaced through the click's response_url, the other through the Web API.
      expect(update.via).toBe(channel === APPROVERS_CHANNEL ? "response_url" : "chat.update");
    }
    expect(fs()?.provisioned).toBe(9 * TIB);
  });

  it("destroy: the confirmed result is announced in the channel; the private prompt becomes a done line", async () => {
    const url = responseUrl();
    await h.driver.command(
      slashCommand({ text: "fs destroy logs", userId: "UBOB", userName: "bob", responseUrl: url }),
    );
    const prompt = await responseTo(url);
    expect(prompt.body["response_type"]).toBe("ephemeral");
    const confirm = buttonIn(prompt.body["blocks"], "Confirm");
    expect(confirm).toBeDefined();
    const clickUrl = responseUrl();
    await click(confirm, {
      userId: "UBOB",
      userName: "bob",
      messageTs: "1700000999.000001",
      ephemeral: true,
      responseUrl: clickUrl,
    });
    const replaced = await responseTo(clickUrl);
    expect(replaced.body["replace_original"]).toBe(true);
    expect(JSON.stringify(replaced.body["blocks"])).toContain("Done: destroy file system logs on lab-1.");
    expect(JSON.stringify(replaced.body["blocks"])).not.toContain("Destroyed");
    const announced = await h.fake.waitForResponse((r) => clickUrl.endsWith(`/${r.id}`), 2);
    expect(announced.body["response_type"]).toBe("in_channel");
    expect(announced.body["replace_original"]).toBe(false);
    expect(JSON.stringify(announced.body["blocks"])).toContain("Destroyed *logs* on lab-1.");
    expect(JSON.stringify(announced.body["blocks"])).toContain("Confirmed by bob.");
    expect(sims.get("lab-1")?.state.fileSystems.get("logs")?.destroyed).toBe(true);
  });

  it("an ungated change answers in the channel; a lookup answers privately", async () => {
    const createUrl = responseUrl();
    await h.driver.command(
      slashCommand({ text: "fs create ff-new 1T --nfs", userId: "UBOB", responseUrl: createUrl }),
    );
    const created = await responseTo(createUrl);
    expect(created.body["response_type"]).toBe("in_channel");
    expect(sims.get("lab-1")?.state.fileSystems.has("ff-new")).toBe(true);
    const listUrl = responseUrl();
    await h.driver.command(slashCommand({ text: "fs show ff-new", userId: "UBOB", responseUrl: listUrl }));
    expect((await responseTo(listUrl)).body["response_type"]).toBe("ephemeral");
  });

  it("eradicate: a second admin approves by typing the name in a modal", async () => {
    const before = h.fake.callsOf("chat.postMessage").length;
    const eurl = responseUrl();
    await h.driver.command(
      slashCommand({ text: "fs eradicate logs", userId: "UALICE", userName: "alice", responseUrl: eurl }),
    );
    const post = await h.fake.waitForCall("chat.postMessage", () => true, before + 1);
    const ts = [...h.fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    const approve = buttonIn(post.args["blocks"], "Approve");
    const opens = h.fake.callsOf("views.open").length;
    await click(approve, { userId: "UDAVE", userName: "dave", messageTs: ts, responseUrl: responseUrl() });
    const open = await h.fake.waitForCall("views.open", () => true, opens + 1);
    expect(blockKitViolations((open.args["view"] as { blocks: unknown[] }).blocks, "view")).toEqual([]);
    expect(sims.get("lab-1")?.state.fileSystems.has("logs")).toBe(true);
    const meta = (open.args["view"] as { private_metadata: string }).private_metadata;
    await h.driver.interactive(viewSubmission({ userId: "UDAVE", privateMetadata: meta, typedText: "logs" }));
    // Replaced through the response_url of the click that opened the dialog.
    const update = await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(update.via).toBe("response_url");
    expect(JSON.stringify(update.blocks)).toMatch(/[Ee]radicated/);
    expect(sims.get("lab-1")?.state.fileSystems.has("logs")).toBe(false);
  });

  it("eradicate: a second admin approves in one click, the name typed in the card's own box", async () => {
    const before = h.fake.callsOf("chat.postMessage").length;
    await h.driver.command(
      slashCommand({
        text: "fs eradicate old-share",
        userId: "UALICE",
        userName: "alice",
        responseUrl: responseUrl(),
      }),
    );
    const post = await h.fake.waitForCall("chat.postMessage", () => true, before + 1);
    const blocks = post.args["blocks"] as { type: string; block_id?: string; optional?: boolean }[];
    expect(blockKitViolations(blocks, "message")).toEqual([]);
    expect(blocks.find((b) => b.type === "input")).toMatchObject({ block_id: "card_typed", optional: true });
    const ts = [...h.fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    const approve = buttonIn(blocks, "Approve");
    const opens = h.fake.callsOf("views.open").length;

    const wrongUrl = responseUrl();
    await click(approve, {
      userId: "UDAVE",
      userName: "dave",
      messageTs: ts,
      responseUrl: wrongUrl,
      typedInCard: "old-shar",
    });
    expect(String((await responseTo(wrongUrl)).body["text"])).toContain(
      'which is not "old-share". Nothing was done',
    );
    expect(sims.get("lab-1")?.state.fileSystems.has("old-share")).toBe(true);

    await click(approve, {
      userId: "UDAVE",
      userName: "dave",
      messageTs: ts,
      responseUrl: responseUrl(),
      typedInCard: " old-share ",
    });
    const update = await h.fake.waitForUpdate((u) => u.ts === ts);
    expect(JSON.stringify(update.blocks)).toMatch(/[Ee]radicated/);
    expect(sims.get("lab-1")?.state.fileSystems.has("old-share")).toBe(false);
    // No dialog: the name came with the click.
    expect(h.fake.callsOf("views.open")).toHaveLength(opens);
  });

  it("a listing of 10,000 file systems: a table within Slack's limits and the full CSV in a DM", async () => {
    const url = responseUrl();
    const uploadsBefore = h.fake.callsOf("files.completeUploadExternal").length;
    await h.driver.command(slashCommand({ text: "fs list --array big-1", userId: "UBOB", responseUrl: url }));
    const reply = await responseTo(url);
    expect(h.fake.rejectedResponses).toEqual([]);
    expect(JSON.stringify(reply.body["blocks"])).toContain("of 10,000 rows");
    const complete = await h.fake.waitForCall("files.completeUploadExternal", () => true, uploadsBefore + 1);
    expect(complete.args["channel_id"]).toBe("DUBOB");
    const id = (complete.args["files"] as { id: string }[])[0]?.id ?? "";
    expect(h.fake.uploads.get(id)?.toString("utf8").trimEnd().split(/\r?\n/)).toHaveLength(10_001);
  });

  it("the help, a fan-out over every array, and an unknown command all fit Slack", async () => {
    for (const text of ["help", "fs", "fs list --array all", "fs frobnicate"]) {
      const url = responseUrl();
      await h.driver.command(slashCommand({ text, userId: "UALICE", responseUrl: url }));
      const r = await responseTo(url);
      expect(blockKitViolations(r.body["blocks"]), text).toEqual([]);
    }
    expect(h.fake.rejectedResponses).toEqual([]);
    expect(h.fake.unexpected).toEqual([]);
  });

  it("counts commands in /metrics by command id: fs list and fs destroy apart, unparsable ones as unknown", async () => {
    const texts = [
      "fs list",
      "fs list --array all",
      "fs destroy home --dry-run",
      "fs frobnicate",
      "<!channel> rm",
    ];
    const finished = texts.map((text, i) => {
      const triggerId = `metrics-${i}`;
      const done = h.log.waitFor((l) => l["msg"] === "command finished" && l["reqId"] === triggerId);
      return { text, triggerId, done };
    });
    for (const f of finished) {
      await h.driver.command(
        slashCommand({ text: f.text, userId: "UALICE", triggerId: f.triggerId, responseUrl: responseUrl() }),
      );
      await f.done;
    }
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    const count = (label: string) =>
      Number(
        new RegExp(`array_chatops_commands_total\\{command="${label}",outcome="ok"\\} (\\d+)`).exec(
          metrics,
        )?.[1] ?? 0,
      );
    expect(count("fs.list")).toBeGreaterThanOrEqual(2);
    expect(count("fs.destroy")).toBeGreaterThanOrEqual(1);
    expect(count("unknown")).toBeGreaterThanOrEqual(2);
    expect(metrics).toMatch(/array_chatops_command_duration_seconds_count\{command="fs\.list"\} [1-9]/);
    // Only ids, help and unknown: never a first word alone, never what people typed.
    const labels = new Set([...metrics.matchAll(/commands_total\{command="([^"]*)"/g)].map((m) => m[1]));
    for (const label of labels) expect(label).toMatch(/^(help|unknown|[a-z]+\.[a-z-]+)$/);
  });

  it("reports the arrays on /readyz", async () => {
    const ready = (await (await fetch(`${h.baseUrl}/readyz`)).json()) as { arrays: { total: number } };
    expect(ready.arrays.total).toBe(2);
  });
});
