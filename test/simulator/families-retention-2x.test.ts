/**
 * The 2.x-only families that keep data and quiet alerts (issue 42), over real HTTPS on the demo array: WORM
 * retention and legal holds refusing destroy (on the 1.x wire too), a held path refusing deletion, maintenance
 * windows holding back alert notifications and ending by the clock, sessions from real logins. Pinned to
 * "1.0-1.12,2.0-2.28" (families-helpers.ts).
 */
import { describe, expect, it } from "vitest";
import { DAY, familySim, HOUR, type Item, refusal, T0 } from "./families-helpers.js";

const s = familySim();
const { open, api, items } = s;

describe("WORM retention and legal holds keep a file system", () => {
  const OFF = {
    nfs: { v3_enabled: false, v4_1_enabled: false },
    smb: { enabled: false },
    http: { enabled: false },
  };

  it("refuses destroying finance on 2.x and 1.x while retained, with the date it ends", async () => {
    const { c, h } = await open();
    const r2 = await api("PATCH", "/file-systems?names=finance", h, { ...OFF, destroyed: true });
    expect(r2.status).toBe(400);
    expect(r2.json()).toMatchObject({ errors: [{ context: "finance" }] });
    expect(refusal(r2)).toMatch(/retained by WORM data policy 'worm-7y' until 2033-/);
    const r1 = await c.call("PATCH", "/api/1.12/file-systems?name=finance", {
      headers: h,
      body: JSON.stringify({ ...OFF, destroyed: true }),
    });
    expect(r1.status).toBe(400);
    expect(refusal(r1)).toMatch(/retained by WORM data policy 'worm-7y'/);
    const locked = await api("PATCH", "/worm-data-policies?names=worm-7y", h, { retention_lock: "unlocked" });
    expect(refusal(locked)).toMatch(/locked retention cannot be unlocked/);
    expect(refusal(await api("DELETE", "/worm-data-policies?names=worm-7y", h))).toMatch(/locked/);
  });

  it("a file system created with a WORM data policy is retained from then on", async () => {
    const { h } = await open();
    const unknown = await api("POST", "/file-systems?names=vault&policy_names=worm-9y", h, {
      provisioned: 2 ** 40,
    });
    expect(refusal(unknown)).toMatch(/WORM data policy 'worm-9y' does not exist/);
    expect((await items("/file-systems?filter=name='vault'", h)).length).toBe(0);
    const made = await api("POST", "/file-systems?names=vault&policy_names=worm-7y", h, {
      provisioned: 2 ** 40,
    });
    expect(made.status, made.text).toBe(200);
    const members = await items("/worm-data-policies/members?policy_names=worm-7y", h);
    expect(members.map((m) => m.member.name)).toEqual(["finance", "vault"]);
    const destroy = await api("PATCH", "/file-systems?names=vault", h, { ...OFF, destroyed: true });
    expect(refusal(destroy)).toMatch(/'vault' is retained by WORM data policy 'worm-7y' until 2033-/);
  });

  it("refuses eradicating a destroyed retained file system until its retention ends", async () => {
    const { c, h } = await open();
    const made = await api("POST", "/file-systems?names=vault&policy_names=worm-7y", h, {
      provisioned: 2 ** 40,
    });
    expect(made.status, made.text).toBe(200);
    // Destroyed before it was retained (a destroy now is refused): the state an eradicate meets.
    const vault = c.sim.state.fileSystems.get("vault");
    if (!vault) throw new Error("vault was created");
    vault.destroyed = true;
    const early = await api("DELETE", "/file-systems?names=vault", h);
    expect(early.status).toBe(400);
    expect(refusal(early)).toMatch(
      /'vault' is retained by WORM data policy 'worm-7y' until 2033-.*eradicated/,
    );
    expect(c.sim.state.fileSystems.has("vault")).toBe(true);
    s.advance(7 * 366 * DAY);
    const later = { ...h, "x-auth-token": await c.login() };
    const done = await api("DELETE", "/file-systems?names=vault", later);
    expect(done.status, done.text).toBe(200);
    expect(c.sim.state.fileSystems.has("vault")).toBe(false);
  });

  it("a held path refuses deletion and its file system destroy, until released", async () => {
    const { c, h } = await open();
    const held = await items("/legal-holds/held-entities?names=hold-audit-2026", h);
    expect(held).toEqual([
      expect.objectContaining({
        path: "/ledgers/2025",
        status: "applied",
        file_system: expect.objectContaining({ name: "finance" }),
      }),
    ]);
    const ask = async (path: string) =>
      (
        await c.call("POST", "/_control/path-deletion", {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fileSystem: "finance", path }),
        })
      ).json() as Item;
    expect(await ask("/ledgers/2025/q4.csv")).toMatchObject({ allowed: false });
    expect(await ask("/ledgers")).toMatchObject({ allowed: false });
    expect(await ask("/ledgers/2024")).toMatchObject({ allowed: true });
    // `home` has no WORM policy: a hold alone keeps it.
    await api(
      "POST",
      "/legal-holds/held-entities?names=hold-audit-2026&file_system_names=home&paths=/alice",
      h,
    );
    const destroy = await api("PATCH", "/file-systems?names=home", h, { ...OFF, destroyed: true });
    expect(refusal(destroy)).toMatch(/under legal hold 'hold-audit-2026'/);
    expect(refusal(await api("DELETE", "/legal-holds?names=hold-audit-2026", h))).toMatch(/still holds/);
    const release = await api(
      "PATCH",
      "/legal-holds/held-entities?names=hold-audit-2026&file_system_names=home&paths=/alice&released=true",
      h,
    );
    expect(release.status, release.text).toBe(200);
    const destroyed = await api("PATCH", "/file-systems?names=home&delete_link_on_eradication=true", h, {
      ...OFF,
      destroyed: true,
    });
    expect(destroyed.status, destroyed.text).toBe(200);
  });
});

describe("maintenance windows", () => {
  it("hold back the notification of alerts raised while in force, and end by the clock", async () => {
    const { c, h } = await open();
    const [planned] = await items("/maintenance-windows", h);
    expect(planned).toMatchObject({
      name: "fw-upgrade",
      created: s.now() + 2 * DAY,
      expires: s.now() + 2 * DAY + 4 * HOUR,
    });
    const opened = await api("POST", "/maintenance-windows?names=array", h, { timeout: HOUR });
    expect(opened.status, opened.text).toBe(200);
    const raise = async (code: number) =>
      (
        await c.call("POST", "/_control/raise-alert", {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ code, severity: "warning", component: "CH1.FB1", subject: "Blade warm" }),
        })
      ).json() as Item;
    const during = await raise(9001);
    const alert = async (index: number) => (await items(`/alerts?names=${index}`, h))[0] as Item;
    expect(await alert(during.index)).not.toHaveProperty("notified");
    s.advance(2 * HOUR);
    expect(await alert(during.index)).toMatchObject({ notified: T0 + HOUR });
    expect((await items("/maintenance-windows", h)).map((w) => w.name)).toEqual(["fw-upgrade"]);
    const after = await raise(9002);
    expect(await alert(after.index)).toMatchObject({ notified: s.now() });
  });
});

describe("sessions", () => {
  it("records real logins, logouts and failed logins", async () => {
    const { c, h } = await open();
    await c.call("POST", "/api/login", { headers: { "api-token": "wrong" } });
    await c.call("POST", "/api/logout", { headers: { "x-auth-token": h["x-auth-token"] as string } });
    const h2 = { "x-auth-token": await c.login() };
    const events = (await items("/sessions", h2)).map((s) => [s.event, s.user, s.method, s.user_interface]);
    expect(events).toEqual([
      ["login", "pureuser", "API token", "REST"],
      ["failed authentication", "", "API token", "REST"],
      ["logout", "pureuser", "API token", "REST"],
      ["login", "pureuser", "API token", "REST"],
    ]);
  });
});
