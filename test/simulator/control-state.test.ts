import { afterEach, describe, expect, it } from "vitest";
import { errorMessage, openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const json = { "content-type": "application/json" };

async function get(client: SimClient, token: string, path: string): Promise<Record<string, unknown>[]> {
  const r = await client.send(`GET ${path}`, { "x-auth-token": token });
  expect(r.status).toBe(200);
  return (r.json() as { items: Record<string, unknown>[] }).items;
}

describe("state controls through sim.control", () => {
  it("raises, escalates and clears an alert that clients then see", async () => {
    c = await openSim({ scenario: "empty" });
    const token = await c.login();
    const alert = c.sim.control.raiseAlert({
      code: 1001,
      severity: "warning",
      component: "fs1",
      subject: "File system nearly full",
    });
    const open = () => get(c!, token, `/api/1.12/alerts?filter=${encodeURIComponent("state='open'")}`);
    expect(await open()).toEqual([
      expect.objectContaining({
        name: String(alert.index),
        severity: "warning",
        subject: "File system nearly full",
      }),
    ]);
    c.sim.control.updateAlert(alert.index, { severity: "critical" });
    expect((await open())[0]).toMatchObject({ severity: "critical" });
    c.sim.control.clearAlert(alert.index);
    expect(await open()).toEqual([]);
  });

  it("sets a file system's usage", async () => {
    c = await openSim({ scenario: "empty" });
    const token = await c.login();
    const created = await c.send('POST /api/1.12/file-systems {"name":"fs1","provisioned":10000000}', {
      "x-auth-token": token,
    });
    expect(created.status).toBe(200);
    c.sim.control.setFileSystemUsage("fs1", 7_000_000);
    const [fs] = await get(c, token, "/api/1.12/file-systems?names=fs1");
    expect(fs?.space).toMatchObject({ virtual: 7_000_000 });
    expect(() => c!.sim.control.setFileSystemUsage("nope", 1)).toThrow(/nope/);
  });

  it("validates generic state-control input", async () => {
    c = await openSim({ scenario: "empty" });
    expect(() => c!.sim.control.stateControl("clear-alert", { index: -1 })).toThrow(/index/);
    expect(c.sim.control.stateControl("eradicate-expired", {})).toEqual({ eradicated: [] });
  });
});

describe("state controls over HTTP", () => {
  const post = (client: SimClient, op: string, body: unknown) =>
    client.call("POST", `/_control/${op}`, { headers: json, body: JSON.stringify(body) });

  it("raises and clears alerts", async () => {
    c = await openSim({ scenario: "empty", controlPath: true });
    const token = await c.login();
    const raised = await post(c, "raise-alert", {
      code: 7,
      severity: "critical",
      component: "CH1.FB1",
      subject: "Blade down",
    });
    expect(raised.status).toBe(200);
    const index = (raised.json() as { index: number }).index;
    expect(await get(c, token, `/api/1.12/alerts?names=${index}`)).toEqual([
      expect.objectContaining({ state: "open", severity: "critical", component: "CH1.FB1" }),
    ]);
    expect((await post(c, "clear-alert", { index })).status).toBe(200);
    expect(await get(c, token, `/api/1.12/alerts?names=${index}`)).toEqual([
      expect.objectContaining({ state: "closed" }),
    ]);
  });

  it("answers 404 for unknown objects and 400 for bad input", async () => {
    c = await openSim({ scenario: "empty", controlPath: true });
    const missing = await post(c, "set-usage", { fileSystem: "ghost", bytes: 5 });
    expect(missing.status).toBe(404);
    expect(errorMessage(missing)).toContain("ghost");
    const bad = await post(c, "raise-alert", {
      code: 7,
      severity: "catastrophic",
      component: "x",
      subject: "y",
    });
    expect(bad.status).toBe(400);
    expect(errorMessage(bad)).toContain("severity");
  });
});
