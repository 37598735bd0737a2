/**
 * The stdio bridge for desktop assistants that only launch stdio MCP servers: it forwards JSON-RPC between its
 * stdin/stdout and the bot's MCP endpoint over Streamable HTTP, with the bearer token from the environment. It
 * holds nothing else: no arrays, no store, no Slack tokens; every decision stays with the bot.
 *
 *   ARRAY_CHATOPS_MCP_URL=https://bot.example/mcp ARRAY_CHATOPS_MCP_TOKEN=… node dist/src/mcp/stdio-bridge.js
 *
 * ARRAY_CHATOPS_MCP_ACTS_FOR (optional) names the person at the keyboard, sent in the header the bot's client
 * entry names in acts_for_header (ARRAY_CHATOPS_MCP_ACTS_FOR_HEADER, "X-Acting-For" by default).
 */
import type { Readable, Writable } from "node:stream";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isEntryPoint } from "../entry-point.js";

export interface BridgeOptions {
  url: string;
  token: string;
  actsFor?: string;
  actsForHeader?: string;
  stdin: Readable;
  stdout: Writable;
  /** Where the bridge says what went wrong (never stdout, which carries JSON-RPC only). */
  log: (line: string) => void;
}

export interface Bridge {
  /** Resolves when either side closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** A JSON-RPC error answer for a request the endpoint could not take (an unknown token: 401). */
function failed(msg: JSONRPCMessage, err: unknown): JSONRPCMessage | undefined {
  if (!("id" in msg) || !("method" in msg)) return undefined;
  const message = err instanceof Error ? err.message : String(err);
  return {
    jsonrpc: "2.0",
    id: msg.id,
    error: { code: -32000, message: `array-chatops endpoint: ${message}` },
  };
}

export async function startBridge(o: BridgeOptions): Promise<Bridge> {
  const headers: Record<string, string> = { Authorization: `Bearer ${o.token}` };
  if (o.actsFor) headers[o.actsForHeader ?? "X-Acting-For"] = o.actsFor;
  const http = new StreamableHTTPClientTransport(new URL(o.url), { requestInit: { headers } });
  const stdio = new StdioServerTransport(o.stdin, o.stdout);
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  stdio.onmessage = (msg) => {
    http.send(msg).catch((err: unknown) => {
      o.log(`could not forward a message: ${err instanceof Error ? err.message : String(err)}`);
      const answer = failed(msg, err);
      if (answer) void stdio.send(answer);
    });
  };
  http.onmessage = (msg) => {
    void stdio.send(msg);
  };
  http.onerror = (err) => o.log(`endpoint: ${err.message}`);
  stdio.onclose = () => {
    void http.close();
    done();
  };
  http.onclose = () => done();
  await http.start();
  await stdio.start();
  return {
    closed,
    async close() {
      await stdio.close();
      await http.close();
    },
  };
}

if (isEntryPoint(import.meta.url, process.argv[1])) {
  const url = process.env.ARRAY_CHATOPS_MCP_URL;
  const token = process.env.ARRAY_CHATOPS_MCP_TOKEN;
  if (!url || !token) {
    process.stderr.write("Set ARRAY_CHATOPS_MCP_URL and ARRAY_CHATOPS_MCP_TOKEN.\n");
    process.exit(2);
  }
  const actsFor = process.env.ARRAY_CHATOPS_MCP_ACTS_FOR;
  const header = process.env.ARRAY_CHATOPS_MCP_ACTS_FOR_HEADER;
  startBridge({
    url,
    token,
    ...(actsFor ? { actsFor } : {}),
    ...(header ? { actsForHeader: header } : {}),
    stdin: process.stdin,
    stdout: process.stdout,
    log: (line) => process.stderr.write(`array-chatops mcp bridge: ${line}\n`),
  }).then(
    (b) => b.closed.then(() => process.exit(0)),
    (err: unknown) => {
      process.stderr.write(`array-chatops mcp bridge: ${String(err)}\n`);
      process.exit(1);
    },
  );
}
