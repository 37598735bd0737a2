import { afterEach, describe, expect, it } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, OPERATOR, STORAGE, startAlertHarness, VIEWER } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type RawBlock = { type: string; elements?: { action_id: string; value: string; text: { text: string } }[] };

function buttons(blocks: unknown[]): { label: string; actionId: string; value: string }[] {
  return (blocks as RawBlock[])
    .filter((b) => b.type === "actions")
    .flatMap((b) => b.elements ?? [])
    .map((e) => ({ label: e.text.text, actionId: e.action_id.replace(/~\d+$/, ""), value: e.value }));
}

describe("buttons on alert messages", () => {
  it("capacity alerts run their follow-up commands through the command pipeline as the clicker", async () => {
    const ran: { text: string; user: string }[] = [];
    const answer: Effect[] = [{ kind: "reply", message: { text: "fs list output", blocks: [] } }];
    h = await startAlertHarness({
      followUps: {
        run: async (text, actor) => {
          ran.push({ text, user: actor.userId });
          return answer;
        },
      },
    });
    h.engine.start();
    await h.advance(30_000);
    raiseAlert(h.sim.state, {
      code: 1100,
      severity: "warning",
      component: "",
      subject: "Storage consumption has reached 92% of usable capacity",
    });
    await h.advance(30_000);
    const list = buttons(h.posts(STORAGE)[0]?.blocks ?? []);
    expect(list.map((b) => b.label)).toEqual([
      "Flag",
      "Snooze 1 hour",
      "Snooze 4 hours",
      "Snooze 1 day",
      "Array space",
      "Largest file systems",
    ]);
    const top = list.find((b) => b.label === "Largest file systems");
    const out = await h.engine.handleClick({
      actionId: top?.actionId ?? "",
      value: top?.value ?? "",
      actor: { kind: "person" as const, userId: VIEWER, channelId: STORAGE },
    });
    expect(out).toBe(answer);
    expect(ran).toEqual([{ text: "fs list --sort used- --array fb1", user: VIEWER }]);
  });

  it("refuses tampered values and unknown buttons with a clear answer, and snoozing needs an operator", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30_000);
    raiseAlert(h.sim.state, {
      code: 1000,
      severity: "warning",
      component: "CH1.FB1",
      subject: "Blade CH1.FB1 is unhealthy",
    });
    await h.advance(30_000);
    const snooze = buttons(h.posts(STORAGE)[0]?.blocks ?? []).find((b) => b.actionId === "alert.snooze");
    const click = async (actionId: string, value: string, userId = OPERATOR) =>
      JSON.stringify(
        await h?.engine.handleClick({
          actionId,
          value,
          actor: { kind: "person" as const, userId, channelId: STORAGE },
        }),
      );

    expect(await click("alert.snooze", snooze?.value ?? "", VIEWER)).toContain("needs the operator role");
    expect(await click("alert.snooze", `999:${snooze?.value.split(":")[1]}`)).toContain(
      "not one of the configured presets",
    );
    expect(await click("alert.flag", "a/CSTORAGE1/fb1/999")).toContain("no longer tracked");
    expect(await click("alert.followup", "rm-rf:x")).toContain("not one this bot knows");
    expect(await click("alert.nope", "x")).toContain("not one this bot knows");
    expect(h.engine.stats().threadLines).toBe(0);
  });
});
