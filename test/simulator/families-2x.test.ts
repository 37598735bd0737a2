/**
 * The 2.x-only families the simulator models with their rules (issue 42), over real HTTPS on the demo array:
 * export policies and who may mount, and QoS limits shaping the performance the array reports. The operations
 * are 2.x-only, so the arrays are pinned to "1.0-1.12,2.0-2.28" (families-helpers.ts).
 */
import { describe, expect, it } from "vitest";
import { DAY, familySim, HOUR, type Item, refusal } from "./families-helpers.js";

const s = familySim();
const { open, api, items } = s;

async function mount(fileSystem: string, client: { ip?: string; hostname?: string }): Promise<Item> {
  return s.control("mount-access", { fileSystem, ...client });
}

describe("export policies decide which client may mount", () => {
  it("seeds the shared names, and the first matching rule by index wins", async () => {
    const { h } = await open();
    const rules = await items("/nfs-export-policies/rules?policy_names=lab-clients", h);
    expect(rules.map((r) => [r.name, r.index, r.client, r.permission, r.access])).toEqual([
      ["lab-clients.1", 1, "10.20.0.0/16", "rw", "no-squash"],
      ["lab-clients.2", 2, "*.build.example.com", "ro", "root-squash"],
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
    expect(bronze).toMatchObject({ max_total_bytes_per_sec: 3_000_000, max_total_ops_per_sec: 5000 });
    const members = await items("/qos-policies/members?policy_names=qos-bronze", h);
    expect(members.map((m) => m.member.name)).toEqual(["scratch"]);
    const window = `start_time=${s.now() - DAY}&end_time=${s.now()}&resolution=${HOUR}`;
    const perf = async () => {
      const series = await items(`/file-systems/performance?names=scratch&${window}`, h);
      return {
        bytes: series.map((s) => s.read_bytes_per_sec + s.write_bytes_per_sec),
        ops: series.map((s) => s.reads_per_sec + s.writes_per_sec + s.others_per_sec),
      };
    };
    // The demo's scratch presses against bronze's 3 MB/s: held there at its busy hours.
    const held = await perf();
    expect(Math.max(...held.bytes)).toBeLessThanOrEqual(3_000_000);
    expect(held.bytes.filter((b) => b > 3_000_000 * 0.999).length).toBeGreaterThan(0);
    // Without a bandwidth limit it runs as it wants to.
    await api("PATCH", "/qos-policies?names=qos-bronze", h, { max_total_bytes_per_sec: 0 });
    const seeded = await perf();
    expect(Math.max(...seeded.bytes)).toBeGreaterThan(3_000_000);
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
