/**
 * Change control (issue 45) through Bolt's real HTTP receiver fed signed requests, the fake Slack Web API and the
 * simulator: an approval rule's card in the channel, approved only by the person the rule names; an access request
 * approved in Slack and then used; a freeze refusing a typed change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { cardButton } from "../fakes/card-buttons.js";
import { clickCard, typeCommand } from "./helpers/clicks.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type Card = Parameters<typeof cardButton>[0];

const ACCESS = {
  default_role: "viewer",
  admin: { users: ["UALICE", "UADA"] },
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
      break_glass: { users: ["UALICE"] },
    });
    h = world.h;
  });

  afterAll(async () => world?.close());

  const type = (user: string, text: string) => typeCommand(h, user, text, `cc-${++n}`);
  const click = (user: string, card: Card, label: "approve" | "deny") =>
    clickCard(h, user, card, label, `cc-click-${++n}`);

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

  it("a freeze refuses a typed change with its name; break-glass runs it marked, listed for review", async () => {
    expect(await type("UADA", "fs eradicate old-share")).toContain("eradications-off");
    expect(await type("UADA", 'fs eradicate old-share --break-glass "INC-80 space"')).toContain(
      "Only the people break_glass names",
    );
    const posts = h.fake.callsOf("chat.postMessage").length;
    await type("UALICE", 'fs eradicate old-share --break-glass "INC-80 space"');
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    expect(JSON.stringify(card.args["blocks"])).toContain("Break-glass");
    const listed = await type("UADA", "audit break-glass");
    expect(listed).toContain("INC-80 space");
    expect(await type("UBOB", "audit break-glass")).toContain("needs the admin role");
  });
});

describe("approval rules with Slack user groups", () => {
  let world: PipelineWorld;
  let h: Harness;
  let n = 100;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB", "UOLGA"], () => ({ groupIds: ["SLEADS", "SSEC"] }), {
      access: ACCESS,
      approvals: {
        rules: [
          {
            name: "leads-destroy",
            match: { commands: ["fs destroy"] },
            approvals: 2,
            approvers: { groups: ["SLEADS"], users: ["UDAVE"] },
            veto: { groups: ["SSEC"] },
            ticket: "^(INC|CHG)-[0-9]+",
          },
        ],
      },
    });
    h = world.h;
    h.fake.groups.set("SLEADS", ["UERIN", "UBOB"]);
    h.fake.groups.set("SSEC", ["USAM"]);
  });

  afterAll(async () => world?.close());

  const type = (user: string, text: string) => typeCommand(h, user, text, `ccg-${++n}`);
  const click = (user: string, card: Card, label: "approve" | "deny") =>
    clickCard(h, user, card, label, `ccg-click-${++n}`);

  it("reason and ticket are asked for; group members count, two distinct, never the requester", async () => {
    expect(await type("UBOB", "fs destroy scratch")).toContain("asks for a reason citing a ticket");
    expect(await type("UBOB", 'fs destroy scratch --reason "just because"')).toContain("cite a ticket");
    const posts = h.fake.callsOf("chat.postMessage").length;
    await type("UBOB", 'fs destroy scratch --reason "INC-81 retire"');
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    // The requester is in the group, and still never counts; an operator outside it does not either.
    const id = await click("UBOB", card, "approve");
    await click("UOLGA", card, "approve");
    expect((await world.store.get(id))?.approvals).toEqual([]);
    await click("UERIN", card, "approve");
    expect((await world.store.get(id))?.approvals.map((a) => a.userId)).toEqual(["UERIN"]);
    expect(world.sim.state.fileSystems.get("scratch")?.destroyed).toBe(false);
    await click("UDAVE", card, "approve");
    await h.fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("approved by"));
    expect(world.sim.state.fileSystems.get("scratch")?.destroyed).toBe(true);
  });

  it("a veto group member's Deny ends it, though they hold no role", async () => {
    const posts = h.fake.callsOf("chat.postMessage").length;
    await type("UBOB", 'fs destroy projects --reason "CHG-82 archive"');
    const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    const id = await click("USAM", card, "deny");
    expect((await world.store.get(id))?.status).toBe("vetoed");
    expect(world.sim.state.fileSystems.get("projects")?.destroyed).toBe(false);
  });
});
