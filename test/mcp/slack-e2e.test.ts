/**
 * The MCP face in the process as it runs (main.ts's Slack mode): an assistant's change posts the approval card in
 * the approvals channel of the fake Slack Web API; a person's signed Approve click carries it out; request_status
 * reports it executed, and a change asked as an MCP task completes (or, after a Deny, fails). The assistant's
 * principal cannot click at all: Slack ids never hold "mcp:".
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { DEFAULT_API_TOKEN } from "../../src/simulator/index.js";
import { httpDriver } from "../fakes/drivers.js";
import { blockAction } from "../fakes/payloads.js";
import { arrayYaml, RUN_SECRET, startRunSlack, useRunSlackWorld } from "../slack/helpers/run-slack.js";

const TIB = 2 ** 40;
const TOKEN = "agent-token-0123456789abcdef";

/**
 * The bot as main.ts runs it in Slack mode, with the MCP face on and one operator assistant (`agent`, acting for the
 * person its header names when given one), and the SDK's own client connected to it.
 */
async function startBotAndAgent(
  w: ReturnType<ReturnType<typeof useRunSlackWorld>>,
  headers: Record<string, string>,
) {
  const yaml = [
    "arrays:",
    ...arrayYaml("lab-1", w.sim.url),
    "access:",
    "  operator: { users: [U2] }",
    "destructive:",
    "  approvals_channel: CAPPROVE",
    "mcp:",
    "  enabled: true",
    "  port: 0",
    "  clients:",
    "    - name: agent",
    "      token_env: MCP_AGENT",
    "      role: operator",
    "      acts_for_header: X-Acting-For",
    "slack:",
    "  port: 0",
    "  channelIntervalMs: 0",
  ].join("\n");
  const loaded = parseConfigText(yaml, {
    source: join(w.dir, "bot.yml"),
    env: {
      LAB_TOKEN: DEFAULT_API_TOKEN,
      SLACK_BOT_TOKEN: "xoxb-run-slack",
      SLACK_SIGNING_SECRET: RUN_SECRET,
      SLACK_API_URL: w.fake.apiUrl,
      MCP_AGENT: TOKEN,
    },
    readFile: (p) => (p.endsWith("ca.pem") ? w.sim.ca : ""),
    baseDir: w.dir,
  });
  const app = await startRunSlack(loaded);
  const listening = await app.log.waitFor((l) => l["msg"] === "MCP face listening");
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${String(listening["port"])}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, ...headers } },
    }),
  );
  return { app, client };
}

describe("the MCP face beside the Slack face", () => {
  const world = useRunSlackWorld();

  it("an assistant's change becomes a card in Slack's approvals channel, a person approves, the status says executed", async () => {
    const w = world();
    const { app, client } = await startBotAndAgent(w, { "X-Acting-For": "U1" });
    try {
      const before = w.sim.state.fileSystems.get("projects")?.provisioned ?? 0;
      const target = Math.ceil(before / TIB) + 5;
      const r = await client.callTool({
        name: "fs_resize",
        arguments: { name: "projects", size: `${target}T` },
      });
      const pendingId = String((r.structuredContent as { pendingId: string }).pendingId);
      const card = await w.fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "CAPPROVE");
      const blocks = JSON.stringify(card.args["blocks"]);
      expect(blocks).toContain("assistant agent for <@U1>");
      expect(blocks).toContain(`"action_id":"${ACTIONS.approve}"`);
      expect(w.sim.state.fileSystems.get("projects")?.provisioned).toBe(before);

      const ts = [...w.fake.messages.values()].find((m) => m.channel === "CAPPROVE")?.ts ?? "";
      const driver = httpDriver(app.baseUrl, RUN_SECRET);
      await driver.interactive(
        blockAction({
          actionId: ACTIONS.approve,
          value: pendingId,
          userId: "U2",
          channelId: "CAPPROVE",
          messageTs: ts,
          responseUrl: w.fake.responseUrl("approve-1"),
        }),
      );
      await w.fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("approved by"));
      expect(w.sim.state.fileSystems.get("projects")?.provisioned).toBe(target * TIB);
      const status = await client.callTool({ name: "request_status", arguments: { id: pendingId } });
      expect((status.structuredContent as { state: string }).state).toBe("executed");
    } finally {
      await client.close();
      await app.stop();
    }
  });
  it("a change asked as a task completes after a person's Approve in Slack, and fails after a Deny", async () => {
    const w = world();
    const { app, client } = await startBotAndAgent(w, {});
    const driver = httpDriver(app.baseUrl, RUN_SECRET);
    /** Asks for a resize as a task, then a person clicks `actionId` on its card in the approvals channel. */
    const decide = async (bytes: number, actionId: string, n: number) => {
      const { task } = await client.request(
        {
          method: "tools/call",
          params: { name: "fs_resize", arguments: { name: "projects", size: bytes }, task: {} },
        },
        CreateTaskResultSchema,
      );
      expect(task.status).toBe("working");
      const card = await w.fake.waitForCall(
        "chat.postMessage",
        (c) => c.args["channel"] === "CAPPROVE" && JSON.stringify(c.args["blocks"]).includes(task.taskId),
      );
      const ts = [...w.fake.messages.values()].find(
        (m) => m.channel === "CAPPROVE" && JSON.stringify(m).includes(task.taskId),
      )?.ts;
      expect(card).toBeDefined();
      await driver.interactive(
        blockAction({
          actionId,
          value: task.taskId,
          userId: "U2",
          channelId: "CAPPROVE",
          messageTs: ts ?? "",
          responseUrl: w.fake.responseUrl(`decide-${n}`),
        }),
      );
      return task.taskId;
    };
    try {
      const before = w.sim.state.fileSystems.get("projects")?.provisioned ?? 0;
      const grown = (Math.ceil(before / TIB) + 5) * TIB;
      // The fake Slack is the file's: count the cards earlier tests turned.
      const approvedCard = (u: { blocks: unknown }) => JSON.stringify(u.blocks).includes("approved by");
      const approvedBefore = w.fake.updates.filter(approvedCard).length;
      const approved = await decide(grown, ACTIONS.approve, 1);
      await w.fake.waitForUpdate(approvedCard, approvedBefore + 1);
      expect(w.sim.state.fileSystems.get("projects")?.provisioned).toBe(grown);
      expect((await client.experimental.tasks.getTask(approved)).status).toBe("completed");
      const result = await client.experimental.tasks.getTaskResult(approved, CallToolResultSchema);
      expect((result.structuredContent as { state: string }).state).toBe("executed");

      const deniedCard = (u: { blocks: unknown }) =>
        JSON.stringify(u.blocks).toLowerCase().includes("denied");
      const deniedBefore = w.fake.updates.filter(deniedCard).length;
      const denied = await decide(grown + TIB, ACTIONS.deny, 2);
      await w.fake.waitForUpdate(deniedCard, deniedBefore + 1);
      expect((await client.experimental.tasks.getTask(denied)).status).toBe("failed");
      expect(w.sim.state.fileSystems.get("projects")?.provisioned).toBe(grown);
    } finally {
      await client.close();
      await app.stop();
    }
  });
});
