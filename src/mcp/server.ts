/**
 * The MCP face: a Streamable HTTP MCP server (the official SDK) on its own port. Each client authenticates with a
 * bearer token mapped to a principal `mcp:<name>` (src/config/mcp.ts); an unknown token gets 401 before any MCP
 * is spoken. Every tool call is the command line a person would type, run by the one pipeline as that principal:
 * the access policy, per-person limits, gates and audit apply unchanged. A change never runs from here: the gate
 * makes it wait for a person's Approve (src/core/approvals/gate.ts), its card goes to people through the chat port, and
 * the assistant gets the impact and the pending id to follow with `request_status`.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpClientConfig, McpConfig } from "../config/mcp.js";
import { assistantActor, SLACK_USER_ID } from "../core/access/actors.js";
import type { PendingStore } from "../core/approvals/pending-store.js";
import type { Registry } from "../core/catalogue/registry.js";
import type { Actor, Effect, MessageRef, PersonRef, Pipeline } from "../core/context/pipeline-types.js";
import type { Message } from "../core/presentation/message.js";
import type { ErrorCode as BotErrorCode } from "../errors.js";
import type { Logger } from "../logger.js";
import { clientGate } from "./client-limits.js";
import { type ToolResult, toolResult } from "./output.js";
import { requestStatus } from "./status.js";
import { pendingTasks, taskOf } from "./tasks.js";
import { commandLine, STATUS_TOOL, toolIndex } from "./tools.js";

/** Where approval cards reach people: the Slack chat port (or any port that posts a message and says where). */
export interface CardPoster {
  post(channelId: string, message: Message): Promise<MessageRef>;
}

export interface McpFaceDeps {
  pipeline: Pipeline;
  registry: Registry;
  pending: PendingStore;
  config: McpConfig;
  /** destructive.approvals_channel: where assistants' requests belong when mcp.channel is not set. */
  approvalsChannel?: string;
  /** Token → client, from resolveMcpTokens. */
  tokens: ReadonlyMap<string, McpClientConfig>;
  chat?: CardPoster;
  logger: Logger;
  version?: string;
  /** The pipeline's clock (whether a pending request has expired). */
  now?: () => number;
}

export interface McpFace {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const digest = (s: string) => createHash("sha256").update(s).digest();

/** The client a bearer token belongs to; every known token is compared in constant time. */
function authenticate(
  header: string | undefined,
  tokens: ReadonlyMap<string, McpClientConfig>,
): McpClientConfig | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return undefined;
  const given = digest(m[1]);
  let found: McpClientConfig | undefined;
  for (const [token, client] of tokens) if (timingSafeEqual(digest(token), given)) found = client;
  return found;
}

/**
 * The person an assistant says it acts for: a Slack user id, shown on cards as that person (a mention Slack
 * resolves), and a requester as far as approvals go. Being named there gives no right. Anything but a user id
 * is refused, so no free text reaches a card.
 */
function actsFor(
  req: IncomingMessage,
  client: McpClientConfig,
): { person?: PersonRef } | { refused: string } {
  if (!client.acts_for_header) return {};
  const v = req.headers[client.acts_for_header.toLowerCase()];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  if (s === undefined || s === "") return {};
  if (!SLACK_USER_ID.test(s))
    return { refused: `${client.acts_for_header} must be a Slack user id (U… or W…), not a name.` };
  return { person: { userId: s } };
}

/**
 * DNS-rebinding defence (the MCP specification's transport security): a browser page on another site may reach
 * a loopback server, but it cannot make its request carry our Host, nor hide its Origin.
 */
function foreignOrigin(req: IncomingMessage, allowed: { hosts: Set<string>; origins: Set<string> }) {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!allowed.hosts.has(host)) return `Host "${host.slice(0, 100)}" is not one this server answers to.`;
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed.origins.has(origin.toLowerCase()))
    return `Origin "${origin.slice(0, 100)}" may not call this server.`;
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }));
}

export async function startMcpServer(deps: McpFaceDeps): Promise<McpFace> {
  const tools = toolIndex(deps.registry);
  const channelId = deps.config.channel ?? deps.approvalsChannel ?? "mcp";
  const log = deps.logger.child({ component: "mcp" });
  const now = deps.now ?? Date.now;
  const gate = clientGate(deps.tokens.values(), now);
  let listening: { host: string; port: number } | undefined;
  /** The Host values this server answers to: its own address and loopback names on its port, and the configured. */
  const allowed = () => {
    const port = listening?.port ?? deps.config.port;
    const own = [listening?.host ?? deps.config.host, "127.0.0.1", "localhost", "[::1]"].map((h) =>
      `${h}:${port}`.toLowerCase(),
    );
    return {
      hosts: new Set([...own, ...deps.config.allowed_hosts.map((h) => h.toLowerCase())]),
      origins: new Set(deps.config.allowed_origins.map((o) => o.toLowerCase())),
    };
  };

  /** Carries the effects a person would see: cards are posted to people, the answer goes back to the assistant. */
  const carry = async (effects: Effect[]): Promise<{ answer?: Message; pendingId?: string }> => {
    let answer: Message | undefined;
    let pendingId: string | undefined;
    for (const e of effects) {
      if (e.kind === "reply") answer = e.later ? await e.later : e.message;
      if (e.kind === "post") {
        pendingId = e.trackPending ?? pendingId;
        if (!deps.chat) continue;
        try {
          const ref = await deps.chat.post(e.channelId, e.message);
          if (e.trackPending) await deps.pipeline.attachMessage(e.trackPending, ref);
        } catch (err) {
          log.warn({ err, channel: e.channelId }, "could not post an assistant's approval card");
        }
      }
    }
    return { ...(answer ? { answer } : {}), ...(pendingId ? { pendingId } : {}) };
  };

  const serverFor = (actor: Actor, client: McpClientConfig) => {
    const server = new Server(
      { name: "array-chatops", version: deps.version ?? "0" },
      {
        // Tasks for change tools, where the client asks for one: answered from the pending store (tasks.ts).
        capabilities: { tools: {}, tasks: { list: {}, requests: { tools: { call: {} } } } },
        taskStore: pendingTasks(deps.pending, actor.userId, now),
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools().listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      // The client's own limits first (request_status reaches no array: a slot, no token).
      const started = gate.start(client, request.params.name === STATUS_TOOL ? 0 : 1);
      if (typeof started !== "function") return toolResult(errorText(started.refused, started.code));
      try {
        const asTask = request.params.task !== undefined;
        const result = await callTool(actor, client, request.params.name, request.params.arguments, asTask);
        if (!asTask || "task" in result) return result;
        // Asked as a task but no request was made (refused, or a read): the error, with the words Slack would show.
        const text = result.content.map((c) => c.text).join("\n");
        throw new McpError(ErrorCode.InvalidParams, text, {
          error: result.structuredContent.error ?? "NOT_A_TASK",
        });
      } finally {
        started();
      }
    });
    return server;
  };

  /** One tool call: the status tool, or the command line a person would type, run as the client's principal. */
  const callTool = async (
    actor: Actor,
    client: McpClientConfig,
    name: string,
    params: Record<string, unknown> | undefined,
    asTask = false,
  ): Promise<ToolResult | { task: Task }> => {
    const tool = tools().byName.get(name);
    const args = params ?? {};
    if (!tool) return toolResult(errorText(`No tool named ${name}.`, "UNKNOWN_TOOL"));
    if (tool.name === STATUS_TOOL)
      return requestStatus(deps.pending, actor.userId, String(args.id ?? ""), deps.now);
    const entry = tool.entry;
    if (!entry) return toolResult(errorText("This tool has no command.", "UNKNOWN_TOOL"));
    if (asTask && !entry.command.impact)
      return toolResult(
        errorText(`${name} is a read: it answers at once, so call it without task.`, "NOT_A_TASK"),
      );
    let text: string;
    try {
      text = commandLine(entry, args);
    } catch (err) {
      return toolResult(errorText(err instanceof Error ? err.message : String(err), "PARSE_BAD_VALUE"));
    }
    const budget = gate.budget(client);
    const effects = await deps.pipeline.handleCommand({
      text,
      built: true,
      actor,
      requestId: `mcp-${randomUUID()}`,
      ...(budget === undefined ? {} : { arrayRequests: budget }),
    });
    const { answer, pendingId } = await carry(effects);
    const reply = answer ?? errorText("The command gave no answer.", "NO_ANSWER");
    if (!pendingId) return toolResult(reply);
    const rec = await deps.pending.get(pendingId);
    if (asTask && rec) return { task: taskOf(rec, now()) };
    return toolResult(reply, {
      pendingId,
      status: "pending",
      ...(rec
        ? {
            impact: {
              title: rec.display.title,
              summary: rec.display.summary,
              facts: rec.display.facts,
              warnings: rec.display.warnings,
              requests: rec.display.requests,
            },
            approvalsRequired: rec.approvalsRequired,
            approverRole: rec.approverRole,
            expiresAt: new Date(rec.expiresAt).toISOString(),
          }
        : {}),
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path !== "/mcp") return refuse(res, 404, "Not found: the MCP endpoint is /mcp.");
    const foreign = foreignOrigin(req, allowed());
    if (foreign) return refuse(res, 403, foreign);
    const client = authenticate(req.headers.authorization, deps.tokens);
    if (!client)
      return refuse(res, 401, "Unknown or missing bearer token.", {
        "www-authenticate": 'Bearer realm="array-chatops"',
      });
    if (req.method !== "POST")
      return refuse(res, 405, "Only POST: this server keeps no sessions.", { allow: "POST" });
    let body: unknown;
    try {
      body = await readBody(req);
    } catch {
      return refuse(res, 400, "The body is not JSON of at most 1 MiB.");
    }
    const named = actsFor(req, client);
    if ("refused" in named) return refuse(res, 400, named.refused);
    const actor: Actor = assistantActor(client.name, channelId, named.person);
    // Stateless: one server and transport per request, so nothing of one client's call lingers for another.
    const server = serverFor(actor, client);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, "MCP request failed");
      if (!res.headersSent) refuse(res, 500, "Internal error.");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(deps.config.port, deps.config.host, () => resolve());
  });
  const addr = http.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  listening = { host, port: addr.port };
  log.info({ port: addr.port }, "MCP face listening");
  return {
    url: `http://${host}:${addr.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function errorText(text: string, code: BotErrorCode): Message {
  return { text, blocks: [], error: code };
}
