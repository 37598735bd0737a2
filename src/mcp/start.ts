/**
 * Starts the MCP face beside another face when `mcp.enabled`: it drives that face's composed pipeline, and its
 * approval cards reach people through that face's chat port (Slack's). Without a chat port the cards wait in the
 * store, where people find them (the console lists waiting requests).
 */
import type { Composed } from "../compose.js";
import type { LoadedConfig } from "../config/load.js";
import type { Logger } from "../logger.js";
import { type CardPoster, type McpFace, startMcpServer } from "./server.js";

export async function startMcpFace(
  loaded: LoadedConfig,
  core: Pick<Composed, "pipeline" | "registry" | "pending">,
  opts: { logger: Logger; chat?: CardPoster },
): Promise<McpFace | undefined> {
  const mcp = loaded.config.mcp;
  if (!mcp.enabled) return undefined;
  const approvals = loaded.config.destructive.approvals_channel;
  return startMcpServer({
    pipeline: core.pipeline,
    registry: core.registry,
    pending: core.pending,
    config: mcp,
    ...(approvals ? { approvalsChannel: approvals } : {}),
    tokens: loaded.mcpTokens ?? new Map(),
    ...(opts.chat ? { chat: opts.chat } : {}),
    logger: opts.logger,
  });
}
