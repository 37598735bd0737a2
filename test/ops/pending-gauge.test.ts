/**
 * The pending-approvals gauge as the process wires it (src/slack/run.ts: pendingCount reads the pending store
 * at scrape time): an approval request made through the app shows as 1 in /metrics, and 0 once approved.
 */
import { describe, expect, it } from "vitest";
import { httpDriver } from "../fakes/drivers.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import {
  loadRunSlackConfig,
  RUN_SECRET,
  startRunSlack,
  useRunSlackWorld,
} from "../slack/helpers/run-slack.js";

describe("the pending-approvals gauge, wired to the pending store", () => {
  const world = useRunSlackWorld();

  it("counts an approval request made through the app, and drops it once approved", async () => {
    const { fake } = world();
    const loaded = loadRunSlackConfig(world(), [
      "access:",
      "  operator: { users: [UBOB] }",
      "  admin: { users: [UALICE] }",
      "store:",
      "  kind: memory",
    ]);
    const app = await startRunSlack(loaded);
    const driver = httpDriver(app.baseUrl, RUN_SECRET);
    const gauge = async () =>
      Number(
        /^array_chatops_pending_approvals (\d+)$/m.exec(
          await (await fetch(`${app.baseUrl}/metrics`)).text(),
        )?.[1],
      );

    expect(await gauge()).toBe(0);

    // A shrink below usage needs an approval: the request is stored and its card posted.
    await driver.command(
      slashCommand({ text: "fs resize builds 9T", userId: "UBOB", responseUrl: fake.responseUrl("req") }),
    );
    const post = await fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "C1");
    const ts = [...fake.messages.values()].find((m) => m.channel === "C1")?.ts ?? "";
    expect(await gauge()).toBe(1);

    const blocks = post.args["blocks"] as {
      type: string;
      elements?: { action_id: string; value: string }[];
    }[];
    const approve = blocks
      .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
      .find((e) => e.action_id.endsWith("approve"));
    expect(approve).toBeDefined();
    await driver.interactive(
      blockAction({
        actionId: approve?.action_id ?? "",
        value: approve?.value ?? "",
        userId: "UALICE",
        messageTs: ts,
        responseUrl: fake.responseUrl("approve"),
      }),
    );
    const update = await fake.waitForUpdate((u) => u.ts === ts);
    expect(JSON.stringify(update.blocks)).toContain("Resized *builds* on lab-1");
    expect(await gauge()).toBe(0);

    expect(await app.stop()).toBe(0);
  });
});
