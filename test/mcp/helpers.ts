/**
 * An MCP face over the core harness: the real pipeline and simulators (HTTPS on loopback), the MCP server on a
 * loopback port, the SDK's own client over Streamable HTTP, and a chat port that keeps the cards it is given so a
 * person can click them through the pipeline.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { z } from "zod";
import { RESOURCES } from "../../commands/index.js";
import { mcpConfigSchema, resolveMcpTokens } from "../../src/config/mcp.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import type { Message } from "../../src/core/presentation/message.js";
import { silentLogger } from "../../src/logger.js";
import { type McpFace, startMcpServer } from "../../src/mcp/server.js";
import { type Harness, type HarnessOptions, startHarness } from "../core/harness.js";

export const TOKENS = {
  reader: "reader-token-0123456789abcdef",
  ops: "ops-token-0123456789abcdef01",
} as const;

export const MCP = {
  enabled: true,
  port: 0,
  clients: [
    { name: "reader", token_env: "MCP_READER", role: "viewer" as const },
    { name: "ops", token_env: "MCP_OPS", role: "operator" as const, acts_for_header: "X-Acting-For" },
  ],
};

export interface McpWorld {
  h: Harness;
  face: McpFace;
  /** Every card the face posted for people, as effects a person's click can act on. */
  cards: Effect[];
  connect(token: string, headers?: Record<string, string>): Promise<Client>;
  close(): Promise<void>;
}

/** Clients of a test's own beside reader and ops, with the tokens their token_env names. */
export interface ExtraClients {
  clients?: NonNullable<z.input<typeof mcpConfigSchema>["clients"]>;
  env?: Record<string, string>;
}

export async function startMcpWorld(opts: HarnessOptions = {}, extra: ExtraClients = {}): Promise<McpWorld> {
  const mcp = { ...MCP, clients: [...MCP.clients, ...(extra.clients ?? [])] };
  const h = await startHarness({
    ...opts,
    config: { destructive: { approvals_channel: "CAPPROVE" }, mcp, ...opts.config },
  });
  const config = mcpConfigSchema.parse(mcp);
  const { tokens } = resolveMcpTokens(config, {
    env: { MCP_READER: TOKENS.reader, MCP_OPS: TOKENS.ops, ...extra.env },
    readFile: () => "",
  });
  const cards: Effect[] = [];
  let ts = 0;
  const face = await startMcpServer({
    pipeline: h.pipeline,
    registry: createRegistry(RESOURCES),
    pending: h.store,
    config,
    approvalsChannel: "CAPPROVE",
    tokens,
    chat: {
      post: async (channelId: string, message: Message) => {
        cards.push({ kind: "post", channelId, message });
        return { channelId, ts: `mcp-${++ts}` };
      },
    },
    logger: silentLogger(),
    now: () => h.clock.now,
  });
  const clients: Client[] = [];
  return {
    h,
    face,
    cards,
    async connect(token, headers = {}) {
      const client = new Client({ name: "test-assistant", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(face.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close();
      await face.close();
      await h.close();
    },
  };
}

/** The text of a tool result. */
export function textOfResult(r: unknown): string {
  const content = (r as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}
