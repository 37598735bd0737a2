/**
 * The two GETs arrays answer with a file (`/logs`, `/keytabs/download`): octet-stream with a file name, through the
 * real client and the simulator over HTTPS. `log list` attaches the log as the array sent it; `keytab download`
 * names the file and its size and attaches nothing, since a keytab holds the service's keys.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { clientFor } from "../simulator/server-helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe("file downloads", () => {
  test("the simulator answers octet-stream with a file name", async () => {
    const sim = h.sims.get("lab-1");
    if (!sim) throw new Error("no lab-1");
    const c = clientFor(sim);
    const token = await c.login();
    // The newest version it serves, whichever generation the suite runs the demo as.
    const { versions } = (await c.call("GET", "/api/api_version")).json() as { versions: string[] };
    const at = versions.at(-1);
    const logs = await c.call("GET", `/api/${at}/logs`, { headers: { "x-auth-token": token } });
    expect(logs.status).toBe(200);
    expect(logs.headers["content-type"]).toBe("application/octet-stream");
    expect(logs.headers["content-disposition"]).toMatch(/^attachment; filename="lab-1-logs-\d+-\d+\.log"$/);
    const keytab = await c.call("GET", `/api/${at}/keytabs/download`, { headers: { "x-auth-token": token } });
    expect(keytab.status).toBe(200);
    expect(keytab.headers["content-type"]).toBe("application/octet-stream");
    expect(keytab.headers["content-disposition"]).toMatch(/^attachment; filename="[\w.-]+\.keytab"$/);
    await c.agent.close();
  });

  test("log list attaches the log the array sent, under the array's file name", async () => {
    const m = messagesOf(await h.run("alice", "log list --since 24h --array lab-1"))[0];
    const file = m?.attachments?.find((a) => a.filename.endsWith(".log"));
    expect(file?.filename).toMatch(/^lab-1-logs-\d+-\d+\.log$/);
    expect(file?.contentType).toBe("application/octet-stream");
    expect(Buffer.from(file?.content as Uint8Array).toString("utf8")).toMatch(/ lab-1 (audit|alert) /);
  });

  test("keytab download names the file and attaches no key material", async () => {
    const answer = await h.run("alice", "keytab download --array lab-1");
    const m = messagesOf(answer)[0];
    expect(m?.attachments ?? []).toEqual([]);
    expect(textOf(answer)).toMatch(/\.keytab/);
  });
});
