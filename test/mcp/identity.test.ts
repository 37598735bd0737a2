/**
 * Who acts on the MCP face (issue 39): the person an assistant names in X-Acting-For is a Slack user id, shown on
 * the card as a mention and counted as a requester, so being named gives no right (they cannot approve the change
 * made "for" them); free text there is refused; and the endpoint answers only its own Host and allowed Origins
 * (DNS-rebinding defence), before any token is looked at.
 */
import { request } from "node:http";
import { afterEach, expect, test } from "vitest";
import { type McpWorld, startMcpWorld, TOKENS } from "./helpers.js";

let w: McpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const TIB = 2 ** 40;
const ACCESS = {
  admin: { users: ["alice"] },
  operator: { users: ["bob", "UDAVE"] },
  viewer: { users: ["carol"] },
};

test("the person an assistant acts for cannot approve its change; the card names them as a mention", async () => {
  w = await startMcpWorld({ config: { access: ACCESS } });
  const sim = w.h.sims.get("lab-1");
  const before = sim?.state.fileSystems.get("projects")?.provisioned ?? 0;
  const client = await w.connect(TOKENS.ops, { "X-Acting-For": "UDAVE" });
  const r = await client.callTool({
    name: "fs_resize",
    arguments: { name: "projects", size: `${Math.ceil(before / TIB) + 3}T` },
  });
  const id = String((r.structuredContent as { pendingId: string }).pendingId);
  expect(JSON.stringify(w.cards)).toContain("assistant ops for <@UDAVE>");
  const refused = JSON.stringify(await w.h.click("UDAVE", w.cards, "Approve"));
  expect(refused).toContain("on your behalf");
  expect((await w.h.store.get(id))?.approvals).toEqual([]);
  expect(sim?.state.fileSystems.get("projects")?.provisioned).toBe(before);
  await w.h.click("bob", w.cards, "Approve");
  expect((await w.h.store.get(id))?.status).toBe("executed");
  await client.close();
});

test("X-Acting-For that is not a Slack user id is refused, so no free text reaches a card", async () => {
  w = await startMcpWorld();
  await expect(w.connect(TOKENS.ops, { "X-Acting-For": "alice approved by bob" })).rejects.toThrow(
    /must be a Slack user id/,
  );
  expect(w.cards).toEqual([]);
});

test("a request with a foreign Origin or Host is refused before its token is read", async () => {
  w = await startMcpWorld();
  const url = new URL(w.face.url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const headers = {
    authorization: `Bearer ${TOKENS.ops}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const origin = await fetch(url, {
    method: "POST",
    body,
    headers: { ...headers, origin: "https://evil.example" },
  });
  expect(origin.status).toBe(403);
  expect(await origin.text()).toContain("may not call this server");
  // A DNS-rebinding page reaches the loopback port under its own name: the Host header gives it away.
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { ...headers, host: "evil.example:80" },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
  expect(status).toBe(403);
  // The same request from the server's own address is answered.
  const ok = await fetch(url, { method: "POST", body, headers });
  expect(ok.status).toBe(200);
});
