/**
 * The identity sweep (issue 39): for every face the bot has (src/core/access/actors.ts FACES, read here, so a new face
 * fails this test until it has its attempt), a viewer puts an admin's user id into every place that face can carry
 * one as data and asks for a change only an operator may make. Nothing changes at the array, no request opens in
 * the admin's name, and nothing is sent to the admin: no name in data becomes the actor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FACES } from "../../src/core/access/actors.js";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { createConsoleSession } from "../../src/local/console-session.js";
import { FORM_CALLBACK_ID } from "../../src/slack/form-modal.js";
import { HOME_RUN_ACTION } from "../../src/slack/home.js";
import { type Harness as CoreHarness, startHarness as startCoreHarness } from "../core/harness.js";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { type McpWorld, startMcpWorld, TOKENS } from "../mcp/helpers.js";
import type { Harness } from "../slack/helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "../slack/helpers/pipeline-world.js";
import { runWorkflowStep, stepCompleted } from "../slack/helpers/workflow-events.js";

const ADMIN = "UALICE";
const VIEWER = "UCAROL";

describe("identity sweep: every face, every field that can carry a user id", () => {
  let world: PipelineWorld;
  let h: Harness;
  let core: CoreHarness;
  let mcp: McpWorld;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], undefined, {
      access: { default_role: "viewer", admin: { users: [ADMIN] }, operator: { users: ["UBOB"] } },
      workflow_steps: { run_array_command: { role: "operator" } },
    });
    h = world.h;
    core = await startCoreHarness();
    mcp = await startMcpWorld();
  });

  afterAll(async () => {
    await world?.close();
    await core?.close();
    await mcp?.close();
  });

  const line = (face: string) => `fs create sweep-${face.replace(/\W+/g, "-")} 1T --nfs`;

  /** One attempt per face; each puts the admin's id in every field of that face that can carry one. */
  const attempts: Record<string, (face: string) => Promise<void>> = {
    "slash command": async (face) => {
      for (const text of [
        `${line(face)} --as ${ADMIN}`,
        `${line(face)} --user ${ADMIN}`,
        `<@${ADMIN}> ${line(face)}`,
      ]) {
        const url = h.fake.responseUrl(`sweep-slash-${text.length}`);
        await h.driver.command(slashCommand({ text, userId: VIEWER, responseUrl: url }));
        await h.fake.waitForResponse((r) => r.id === `sweep-slash-${text.length}`);
      }
    },
    button: async () => {
      for (const value of [ADMIN, JSON.stringify({ userId: ADMIN })]) {
        const acked = await h.driver.interactive(
          blockAction({
            actionId: ACTIONS.approve,
            value,
            userId: VIEWER,
            messageTs: "9.000001",
            responseUrl: h.fake.responseUrl(`sweep-button-${value.length}`),
          }),
        );
        expect(acked.status).toBe(200);
      }
    },
    modal: async (face) => {
      const acked = await h.driver.interactive(
        viewSubmission({
          userId: VIEWER,
          callbackId: FORM_CALLBACK_ID,
          privateMetadata: JSON.stringify({
            path: "fs create",
            channelId: "C1",
            line: line(face),
            userId: ADMIN,
            user: ADMIN,
          }),
          values: {},
        }),
      );
      expect(acked.status).toBe(200);
    },
    "App Home": async () => {
      const acked = await h.driver.interactive(
        blockAction({
          actionId: HOME_RUN_ACTION,
          value: JSON.stringify({ command: "rpo", array: "lab-1", user: ADMIN, userId: ADMIN }),
          userId: VIEWER,
          messageTs: "9.000002",
          responseUrl: h.fake.responseUrl("sweep-home"),
        }),
      );
      expect(acked.status).toBe(200);
    },
    "workflow step": async (face) => {
      const id = await runWorkflowStep(h, "run_array_command", {
        command: line(face),
        channel: "C1",
        user: ADMIN,
        run_as: ADMIN,
        requester: ADMIN,
        interactivity: ADMIN,
      });
      const failed = await stepCompleted(h, id, "functions.completeError");
      expect(String(failed.args["error"])).toMatch(/without a person/);
    },
    MCP: async (face) => {
      // The reader client is a viewer: naming an admin (as a header or an argument) lends it nothing.
      const client = await mcp.connect(TOKENS.reader, { "X-Acting-For": ADMIN });
      const named = await client.callTool({
        name: "fs_create",
        arguments: { name: `sweep-${face}`, size: "1T", nfs: true, user: ADMIN },
      });
      expect(JSON.stringify(named)).toMatch(/has no argument/);
      const plain = await client.callTool({
        name: "fs_create",
        arguments: { name: `sweep-${face}`, size: "1T", nfs: true },
      });
      expect(JSON.stringify(plain)).toMatch(/needs the operator role/);
      await client.close();
      expect(mcp.h.sims.get("lab-1")?.state.fileSystems.has(`sweep-${face}`)).toBe(false);
    },
    console: async (face) => {
      const out: string[] = [];
      const s = createConsoleSession({
        pipeline: core.pipeline,
        outcomes: { records: core.audits },
        initialUser: "carol",
        knownUsers: { alice: "admin", bob: "operator", carol: "viewer" },
        io: { write: (t) => out.push(t), ask: async () => undefined },
      });
      await s.handleLine(`/array ${line(face)} --as alice`);
      await s.handleLine(`/array ${line(face)} --user alice`);
      await s.handleLine("/whoami");
      expect(out.join("\n")).toMatch(/carol/);
      expect(core.sims.get("lab-1")?.state.fileSystems.has(`sweep-${face.replace(/\W+/g, "-")}`)).toBe(false);
    },
  };

  it("has an attempt for every face the bot has (read from src/core/access/actors.ts)", () => {
    expect(Object.keys(attempts).sort()).toEqual(FACES.map((f) => f.face).sort());
  });

  for (const { face } of FACES) {
    it(`${face}: a viewer naming an admin changes nothing, opens nothing in the admin's name, reaches no admin`, async () => {
      const attempt = attempts[face];
      if (!attempt) throw new Error(`no attempt for the ${face} face`);
      await attempt(face);
      const name = `sweep-${face.replace(/\W+/g, "-")}`;
      expect(world.sim.state.fileSystems.has(name)).toBe(false);
      const open = await world.store.listOpen();
      expect(open.filter((r) => r.requester.userId === ADMIN || r.onBehalfOf?.userId === ADMIN)).toEqual([]);
      expect(h.fake.callsOf("chat.postEphemeral").filter((c) => c.args["user"] === ADMIN)).toEqual([]);
    });
  }
});
