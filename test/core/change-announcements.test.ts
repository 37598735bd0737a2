import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { findButton, type Harness, messagesOf, startHarness, textOf } from "./harness.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const shape = (effects: readonly Effect[]) =>
  effects.map((e) => `${e.kind}:${"message" in e ? (e.message.visibility ?? "ephemeral") : ""}`);

describe("changes announce their result in the channel; lookups stay private", () => {
  test("confirm: the private prompt becomes a short done line and the result is answered in channel", async () => {
    const card = await h.run("bob", "fs destroy logs");
    const confirm = findButton(card, "Confirm");
    const prompt = { channelId: "C1", ts: "ephemeral-1" };
    const done = await h.pipeline.handleClick({
      actionId: confirm.actionId,
      value: confirm.value,
      actor: { kind: "console" as const, userId: "bob", channelId: "C1", displayName: "bob" },
      ref: prompt,
    });
    expect(shape(done)).toEqual(["update:ephemeral", "reply:in_channel"]);
    const [update, reply] = done;
    expect(update).toMatchObject({ kind: "update", ref: prompt });
    expect(textOf(update ? [update] : [])).toContain(
      "Done: destroy file system logs on lab-1. The result is posted in the channel.",
    );
    expect(textOf(update ? [update] : [])).not.toContain("Destroyed");
    const announced = textOf(reply ? [reply] : []);
    expect(announced).toContain("Destroyed *logs* on lab-1.");
    expect(announced).toContain("Confirmed by bob.");
    // The Recover offer travels with the announced result.
    expect(findButton(reply ? [reply] : [], "Recover logs").value).toBeTruthy();
  });

  test("approve: the cards in the channel become the result", async () => {
    const request = await h.run("bob", "fs resize scratch 4T");
    const done = await h.click("alice", request, "Approve");
    expect(shape(done)).toEqual(["update:in_channel"]);
    expect(textOf(done)).toContain("Resized *scratch* on lab-1");
  });

  test("ungated changes (create, recover, snapshot) answer in channel; lookups answer privately", async () => {
    for (const text of ["fs create newshare 2T --nfs", "snapshot create home", "fs resize scratch 6T"]) {
      const effects = await h.run("bob", text);
      expect(shape(effects), `${text}: ${textOf(effects)}`).toEqual(["reply:in_channel"]);
    }
    const destroyed = await h.click("bob", await h.run("bob", "fs destroy logs"), "Confirm");
    expect(shape(await h.run("bob", "fs recover logs"))).toEqual(["reply:in_channel"]);
    expect(textOf(destroyed)).toContain("Destroyed *logs*");
    for (const text of ["fs list", "fs show home", "help", "fs destroy home --dry-run"]) {
      const effects = await h.run("bob", text);
      expect(shape(effects), text).toEqual(["reply:ephemeral"]);
      expect(messagesOf(effects)).toHaveLength(1);
    }
  });
});
