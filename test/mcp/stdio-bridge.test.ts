import { PassThrough } from "node:stream";
import { afterEach, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../../src/mcp/stdio-bridge.js";
import { type McpWorld, startMcpWorld, TOKENS } from "./helpers.js";

let w: McpWorld | undefined;
let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  await w?.close();
  bridge = undefined;
  w = undefined;
});

/** A JSON-RPC conversation over the bridge's stdin and stdout, one line per message. */
function wire() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let buf = "";
  stdout.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const msg = JSON.parse(buf.slice(0, nl)) as Record<string, unknown>;
      buf = buf.slice(nl + 1);
      waiting.get(msg.id as number)?.(msg);
    }
  });
  let id = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: n, method, params })}\n`);
    });
  const notify = (method: string) => stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  return { stdin, stdout, call, notify };
}

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "desk", version: "1" } };

describe("the stdio bridge", () => {
  test("forwards a desktop client's JSON-RPC to the endpoint with the token, acting for the person", async () => {
    w = await startMcpWorld();
    const io = wire();
    const logs: string[] = [];
    bridge = await startBridge({
      url: w.face.url,
      token: TOKENS.ops,
      actsFor: "UALICE",
      stdin: io.stdin,
      stdout: io.stdout,
      log: (l) => logs.push(l),
    });
    const init = await io.call("initialize", INIT);
    expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe("array-chatops");
    io.notify("notifications/initialized");
    const list = await io.call("tools/list");
    expect((list.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain("fs_list");
    const change = await io.call("tools/call", {
      name: "fs_resize",
      arguments: { name: "projects", size: "900T" },
    });
    const id = (change.result as { structuredContent: { pendingId: string } }).structuredContent.pendingId;
    const rec = await w.h.store.get(id);
    expect(rec?.requester.displayName).toBe("assistant ops");
    expect(rec?.onBehalfOf).toEqual({ userId: "UALICE" });
    expect(logs).toEqual([]);
  });

  test("an unknown token comes back as a JSON-RPC error, not a hang", async () => {
    w = await startMcpWorld();
    const io = wire();
    bridge = await startBridge({
      url: w.face.url,
      token: "wrong-token-0123456789",
      stdin: io.stdin,
      stdout: io.stdout,
      log: () => {},
    });
    const init = await io.call("initialize", INIT);
    expect(JSON.stringify(init.error)).toMatch(/401|Unauthorized|token/i);
  });
});
