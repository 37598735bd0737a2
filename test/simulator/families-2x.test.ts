/**
 * The 2.x-only families the simulator models with their rules (issue 42), over real HTTPS on the demo array:
 * export policies and who may mount, QoS limits shaping reported performance, WORM retention and legal holds
 * refusing destroy and eradicate (on the 1.x wire too), maintenance windows holding back alert notifications,
 * sessions from real logins. The operations are 2.x-only, so the arrays are pinned to "1.0-1.12,2.0-2.28".
 */
import { afterEach, describe, expect, it } from "vitest";
import { openSim, type Reply, type SimClient } from "./server-helpers.js";

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// biome-ignore lint/suspicious/noExplicitAny: free-form JSON items
type Item = Record<string, any>;

let c: SimClient | undefined;
let now = T0;
afterEach(async () => {
  await c?.close();
  c = undefined;
  now = T0;
});

async function open(): Promise<{ c: SimClient; h: Record<string, string> }> {
  c = await openSim({
    versions: "1.0-1.12,2.0-2.28",
    scenario: "demo",
    clock: () => now,
    controlPath: true,
    sessionIdleMs: 10 * DAY,
  });
  const token = await c.login();
  return { c, h: { "x-auth-token": token, "content-type": "application/json" } };
}

async function api(method: string, path: string, h: Record<string, string>, body?: unknown): Promise<Reply> {
  return (c as SimClient).call(method, `/api/2.28${path}`, {
    headers: h,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function items(path: string, h: Record<string, string>): Promise<Item[]> {
  const r = await api("GET", path, h);
  expect(r.status, r.text).toBe(200);
  return (r.json() as { items: Item[] }).items;
}

function refusal(r: Reply): string {
  const body = r.json() as { errors?: { message?: string; context?: string }[] };
  return body.errors?.[0]?.message ?? "";
}

async function mount(fileSystem: string, client: { ip?: string; hostname?: string }): Promise<Item> {
  const r = await (c as SimClient).call("POST", "/_control/mount-access", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fileSystem, ...client }),
  });
  expect(r.status, r.text).toBe(200);
  return r.json() as Item;
}

describe("export policies decide which client may mount", () => {
  it("seeds the shared names, and the first matching rule by index wins", async () => {
    const { h } = await open();
    const rules = await items("/nfs-export-policies/rules?policy_names=lab-clients", h);
    expect(rules.map((r) => [r.index, r.client, r.permission, r.access])).toEqual([
      [1, "10.20.0.0/16", "rw", "no-squash"],
      [2, "*.build.example.com", "ro", "root-squash"],
    ]);
    const exports = await items("/file-system-exports", h);
    expect(exports.map((e) => [e.name, e.member.name, e.policy.name, e.policy_type])).toEqual([
      ["home", "home", "default", "nfs"],
      ["projects", "projects", "lab-clients", "nfs"],
      ["media", "media", "smb-clients", "smb"],
    ]);
    const fs = await items("/file-systems?names=projects,media,scratch", h);
    expect(
      fs.map((f) => [
        f.name,
        f.nfs.export_policy?.name ?? null,
        f.smb.share_policy?.name ?? null,
        f.qos_policy?.name ?? null,
      ]),
    ).toEqual([
      ["projects", "lab-clients", null, null],
      ["media", null, "smb-default", null],
      ["scratch", null, null, "qos-bronze"],
    ]);
    expect(await mount("projects", { ip: "10.20.3.4" })).toMatchObject({
      allowed: true,
      permission: "rw",
      rule: rules[0]?.name,
    });
    expect(await mount("projects", { ip: "10.99.0.1", hostname: "ci-7.build.example.com" })).toMatchObject({
      allowed: true,
      permission: "ro",
      index: 2,
    });
    expect(await mount("projects", { ip: "192.168.1.1" })).toMatchObject({ allowed: false });
    expect(await mount("home", { ip: "192.168.1.1" })).toMatchObject({
      allowed: true,
      permission: "ro",
      access: "root-squash",
    });
    expect(await mount("scratch", { ip: "10.20.3.4" })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/no NFS export/),
    });

    // A rule placed before the first one takes over for the clients it matches.
    const added = await api(
      "POST",
      `/nfs-export-policies/rules?policy_names=lab-clients&before_rule_name=${rules[0]?.name}`,
      h,
      {
        client: "10.20.3.4",
        permission: "ro",
      },
    );
    expect(added.status, added.text).toBe(200);
    expect(await mount("projects", { ip: "10.20.3.4" })).toMatchObject({
      allowed: true,
      permission: "ro",
      index: 1,
    });
    expect(await mount("projects", { ip: "10.20.3.5" })).toMatchObject({ permission: "rw", index: 2 });
  });

  it("refuses bad rules, stale versions and deleting a policy an export uses", async () => {
    const { h } = await open();
    const bad = await api("POST", "/nfs-export-policies/rules?policy_names=default", h, {
      client: "10.0.0.0/40",
    });
    expect(bad.status).toBe(400);
    expect(refusal(bad)).toMatch(/prefix longer than 32/);
    expect(
      refusal(await api("POST", "/nfs-export-policies/rules?policy_names=default", h, { permission: "rx" })),
    ).toMatch(/'permission' must be one of rw, ro/);
    const [policy] = await items("/nfs-export-policies?names=default", h);
    await api("PATCH", "/nfs-export-policies?names=default", h, { enabled: true });
    const stale = await api("PATCH", `/nfs-export-policies?names=default&versions=${policy?.version}`, h, {
      enabled: false,
    });
    expect(refusal(stale)).toMatch(/changed since version/);
    const inUse = await api("DELETE", "/nfs-export-policies?names=lab-clients", h);
    expect(inUse.status).toBe(400);
    expect(refusal(inUse)).toMatch(/in use by export 'projects'/);
    expect((await api("DELETE", "/file-system-exports?names=projects", h)).status).toBe(200);
    expect((await api("DELETE", "/nfs-export-policies?names=lab-clients", h)).status).toBe(200);
    expect(await mount("projects", { ip: "10.20.3.4" })).toMatchObject({ allowed: false });
    const smb = await api("DELETE", "/smb-share-policies?names=smb-default", h);
    expect(refusal(smb)).toMatch(/in use by export 'media'/);
    const nap = await items("/network-access-policies", h);
    expect(nap.map((p) => [p.name, p.rules[0].client, p.rules[0].effect])).toEqual([
      ["default", "*", "allow"],
    ]);
    expect((await api("DELETE", "/network-access-policies?names=default", h)).status).toBe(405);
  });
});

describe("QoS limits shape the performance the array reports", () => {
  it("caps scratch at qos-bronze's limits, flat-topped, and lifts the cap when the member leaves", async () => {
    const { h } = await open();
    const [bronze] = await items("/qos-policies?names=qos-bronze", h);
    expect(bronze).toMatchObject({ max_total_bytes_per_sec: 200_000_000, max_total_ops_per_sec: 5000 });
    const members = await items("/qos-policies/members?policy_names=qos-bronze", h);
    expect(members.map((m) => m.member.name)).toEqual(["scratch"]);
    const window = `start_time=${now - DAY}&end_time=${now}&resolution=${HOUR}`;
    const perf = async () => {
      const series = await items(`/file-systems/performance?names=scratch&${window}`, h);
      return {
        bytes: series.map((s) => s.read_bytes_per_sec + s.write_bytes_per_sec),
        ops: series.map((s) => s.reads_per_sec + s.writes_per_sec + s.others_per_sec),
      };
    };
    const seeded = await perf();
    // The demo's scratch runs below bronze's limits (its figures are the ones 1.x has always shown).
    expect(Math.max(...seeded.bytes)).toBeLessThan(200_000_000);
    const limit = Math.round(Math.max(...seeded.bytes) / 2);
    expect(
      (await api("PATCH", "/qos-policies?names=qos-bronze", h, { max_total_bytes_per_sec: limit })).status,
    ).toBe(200);
    const throttled = await perf();
    expect(Math.max(...throttled.bytes)).toBeLessThanOrEqual(limit);
    // Flat-topped: every hour that wanted more than the limit sits at it.
    const wanted = seeded.bytes.filter((b) => b > limit).length;
    expect(wanted).toBeGreaterThan(0);
    expect(throttled.bytes.filter((b) => b > limit * 0.999).length).toBe(wanted);
    await api("PATCH", "/qos-policies?names=qos-bronze", h, {
      max_total_bytes_per_sec: 0,
      max_total_ops_per_sec: 60,
    });
    expect(Math.max(...(await perf()).ops)).toBeLessThanOrEqual(60);
    expect((await api("DELETE", "/qos-policies?names=qos-bronze", h)).status).toBe(400);
    const left = await api("DELETE", "/qos-policies/members?policy_names=qos-bronze&member_names=scratch", h);
    expect(left.status, left.text).toBe(200);
    expect(await perf()).toEqual(seeded);
  });
});

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
      created: now + 2 * DAY,
      expires: now + 2 * DAY + 4 * HOUR,
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
    now += 2 * HOUR;
    expect(await alert(during.index)).toMatchObject({ notified: T0 + HOUR });
    expect((await items("/maintenance-windows", h)).map((w) => w.name)).toEqual(["fw-upgrade"]);
    const after = await raise(9002);
    expect(await alert(after.index)).toMatchObject({ notified: now });
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
