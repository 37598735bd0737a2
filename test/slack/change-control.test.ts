/**
 * Change control (issue 45) through Bolt's real HTTP receiver fed signed requests, the fake Slack Web API and the
 * simulator: an approval rule's card in the channel, approved only by the person the rule names; an access request
 * approved in Slack and then used; a freeze refusing a typed change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

const ACCESS = {
  default_role: "viewer",
  admin: { users: ["UALICE"] },
  operator: { users: ["UBOB", "UOLGA"] },
};

describe("change control in Slack", () => {
  let world: PipelineWorld;
  let h: Harness;
  let n = 0;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB", "UOLGA"], undefined, {
      access: ACCESS,
      approvals: {
        rules: [
          {
            name: "lab-destroy",
            match: { commands: ["fs destroy"] },
            approvals: 1,
            approvers: { users: ["UDAVE"] },
            reason: "required",
          },
        ],
      },
      access_requests: {
        rules: [{ roles: ["operator"], max: "4h", approvers: { users: ["UALICE"] } }],
      },
      freeze: [
        {
          name: "eradications-off",
          from: "2000-01-01T00:00:00Z",
          to: "2100-01-01T00:00:00Z",
          classes: ["eradicate"],
        },
      ],
    });
    h = world.h;
  });

  afterAll(async () => world?.close());

  /** Types a command as `user`; returns what its response_url got. */
  const type = async (user: string, text: string) => {
    const id = `cc-${++n}`;
    await h.driver.command(slashCommand({ text, userId: user, responseUrl: h.fake.responseUrl(id) }));
    return JSON.stringify((await h.fake.waitForResponse((r) => r.id === id)).body);
  };
  const click = async (user: string, card: Parameters<typeof cardButton>[0], label: "approve" | "deny") => {
    const b = cardButton(card, label);
    const ts = [...h.fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    const id = `cc-click-${++n}`;
    await h.driver.interactive(
      blockAction({
        actionId: b.action_id,
        value: b.value,
        userId: user,
        messageTs: ts,
        responseUrl: h.fake.responseUrl(id),
      }),
    );
    return b.value;
  };

  it("a rule's card names it; only the person it names can approve, whatever others' roles", async () => {
    const posts = h.fake.callsOf("chat.postMessage").length;
    await type("UBOB", 'fs destroy scratch --reason "INC-77 retire"');
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    expect(JSON.stringify(card.args["blocks"])).toContain("Approval rule lab-destroy");
    const id = await click("UOLGA", card, "approve");
    expect((await world.store.get(id))?.approvals).toEqual([]);
    expect(world.sim.state.fileSystems.get("scratch")?.destroyed).toBe(false);
    await click("UDAVE", card, "approve");
    await h.fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("approved by"));
    expect(world.sim.state.fileSystems.get("scratch")?.destroyed).toBe(true);
  });

  it("an access request is approved in Slack by its approver, then the role works", async () => {
    expect(await type("UCAROL", "fs create cc-before 1T --nfs")).toContain("needs the operator role");
    const posts = h.fake.callsOf("chat.postMessage").length;
    await type("UCAROL", 'access request operator --array lab-1 --for 1h --reason "INC-78 capacity"');
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    expect(JSON.stringify(card.args["blocks"])).toContain("Access request");
    await click("UALICE", card, "approve");
    await h.fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("Granted"));
    expect(await type("UCAROL", "fs create cc-granted 1T --nfs")).toContain("Created");
  });

  it("a freeze refuses a typed change with its name", async () => {
    await type("UBOB", "fs destroy projects --reason CHG-1");
    expect(await type("UALICE", "fs eradicate old-share")).toContain("eradications-off");
  });
});
