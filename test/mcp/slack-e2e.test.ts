/**
 * The MCP face in the process as it runs (main.ts's Slack mode): an assistant's change posts the approval card in
 * the approvals channel of the fake Slack Web API; a person's signed Approve click carries it out; request_status
 * reports it executed. The assistant's principal cannot click at all: Slack ids never hold "mcp:".
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { ACTIONS } from "../../src/core/pipeline-deps.js";
import { DEFAULT_API_TOKEN } from "../../src/simulator/index.js";
import { httpDriver } from "../fakes/drivers.js";
import { blockAction } from "../fakes/payloads.js";
import { arrayYaml, RUN_SECRET, startRunSlack, useRunSlackWorld } from "../slack/helpers/run-slack.js";

const TIB = 2 ** 40;
const TOKEN = "agent-token-0123456789abcdef";

describe("the MCP face beside the Slack face", () => {
  const world = useRunSlackWorld();

  it("an assistant's change becomes a card in Slack's approvals channel, a person approves, the status says executed", async () => {
    const w = world();
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
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, "X-Acting-For": "U1" } },
      }),
    );
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
});
