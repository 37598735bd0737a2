import { describe, expect, it } from "vitest";
import { storeOptions } from "../../src/alerts/start.js";
import type { PendingRecord } from "../../src/core/approvals/pending-store.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { openStore } from "../../src/store/index.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { loadRunSlackConfig, RUN_SECRET, startRunSlack, useRunSlackWorld } from "./helpers/run-slack.js";

describe("runSlack (the process's Slack branch)", () => {
  const world = useRunSlackWorld();

  it("serves commands, posts audit lines, and on SIGTERM stops and logs out of the arrays", async () => {
    const { sim, fake } = world();
    const loaded = loadRunSlackConfig(world(), [
      "access:",
      "  viewer: { users: [U1] }",
      "audit_channel: CAUDIT",
    ]);
    expect(loaded.slack?.mode).toBe("http");
    const hooks: string[] = [];
    const app = await startRunSlack(loaded, {
      onStarted: (ports) => {
        hooks.push(`started:${typeof ports.chat.post}`);
      },
      onStop: async () => {
        hooks.push("stopped");
      },
    });

    const res = await signedPost(
      `${app.baseUrl}/slack/events`,
      commandBody(slashCommand({ text: "fs list", responseUrl: fake.responseUrl("run-1") })),
      { secret: RUN_SECRET },
    );
    expect(res.status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "run-1");
    expect(JSON.stringify(answer.body["blocks"])).toContain("file systems on array lab-1");
    const audit = await fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "CAUDIT");
    expect(JSON.stringify(audit.args["blocks"])).toContain(
      "`fs.list` allowed for alice in <#C1> on lab-1: ok",
    );

    const logoutsBefore = sim.control.stats().requests["POST /api/logout"] ?? 0;
    expect(await app.stop()).toBe(0);
    expect(hooks).toEqual(["started:function", "stopped"]);
    expect(sim.control.stats().requests["POST /api/logout"] ?? 0).toBeGreaterThan(logoutsBefore);
    await expect(fetch(`${app.baseUrl}/healthz`)).rejects.toThrow();
  });

  it("on SIGTERM, audit lines still waiting for the audit channel's pace are posted before it stops", async () => {
    const { fake } = world();
    const loaded = loadRunSlackConfig(world(), [
      "access:",
      "  viewer: { users: [U1] }",
      "audit_channel: CAUDIT",
    ]);
    const auditLines = () =>
      fake
        .callsOf("chat.postMessage")
        .filter((c) => c.args["channel"] === "CAUDIT")
        .flatMap((c) => JSON.stringify(c.args["blocks"]).match(/`fs\.list` allowed/g) ?? []).length;
    const before = auditLines();
    const app = await startRunSlack(loaded);
    const ids = ["flush-1", "flush-2", "flush-3", "flush-4"];
    // Answered at once, one after another: the first line goes out, the rest wait for the channel's next turn.
    for (const id of ids) {
      await signedPost(
        `${app.baseUrl}/slack/events`,
        commandBody(slashCommand({ text: "fs list", responseUrl: fake.responseUrl(id) })),
        { secret: RUN_SECRET },
      );
      await fake.waitForResponse((r) => r.id === id);
    }
    expect(await app.stop()).toBe(0);
    expect(auditLines() - before).toBe(ids.length);
  });

  it("at start-up, a request the last process left half-done ends as interrupted and its card says so", async () => {
    const { fake } = world();
    const loaded = loadRunSlackConfig(world(), ["access:", "  operator: { users: [U1] }"]);
    const posted = await fake.webClient("xoxb-run-slack").chat.postMessage({ channel: "C1", text: "card" });
    const ts = String(posted.ts);
    // What a process killed mid-change leaves in the data file: a request still "claimed".
    const store = openStore(storeOptions(loaded));
    const now = Date.now();
    const rec: PendingRecord = {
      id: "p-crashed",
      kind: "request",
      status: "claimed",
      commandId: "fs.resize",
      args: { name: "builds", size: 9 * 2 ** 40 },
      commandText: "fs resize builds 9T",
      requester: { userId: "U1" },
      channelId: "C1",
      array: "lab-1",
      requestId: "r-crashed",
      destructiveClass: "shrink_below_usage",
      policy: "approve",
      approvalsRequired: 1,
      approverRole: "operator",
      approvals: [{ userId: "U2", at: now }],
      fingerprint: "f",
      state: { provisioned_bytes: 10 * 2 ** 40 },
      display: {
        title: "resize file system builds on lab-1",
        summary: "",
        facts: [],
        warnings: [],
        requests: [],
      },
      createdAt: now,
      expiresAt: now + 15 * 60_000,
      updatedAt: now,
      messages: [{ channelId: "C1", ts }],
    };
    await createDurablePendingStore(store).create(rec);
    await store.close();

    const app = await startRunSlack(loaded);
    const update = await fake.waitForCall("chat.update", (c) => c.args["ts"] === ts);
    expect(JSON.stringify(update.args["blocks"])).toContain(
      "Interrupted: the bot stopped while this ran. Check lab-1 before running it again.",
    );
    expect(await app.stop()).toBe(0);
    const after = openStore(storeOptions(loaded));
    expect((await createDurablePendingStore(after).get("p-crashed"))?.status).toBe("interrupted");
    await after.close();
  });
});
