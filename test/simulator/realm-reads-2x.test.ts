/**
 * Reads the simulator derives from what the demo array holds (issue 42): a realm's space, its space by storage
 * class and its defaults come from the realms themselves, and the array is the member of its network access
 * policy; a name the array has no object by is refused (400), as on arrays.
 */
import { describe, expect, it } from "vitest";
import { familySim, refusal } from "./families-helpers.js";

const s = familySim();
const { open, api, items } = s;

describe("a realm's space and defaults", () => {
  it("answers for each realm by its name, a new realm at once, an unknown name refused", async () => {
    const { h } = await open();
    const space = await items("/realms/space?names=finance-realm", h);
    expect(space.map((r) => [r.name, r.space.total_physical])).toEqual([["finance-realm", 0]]);
    const byClass = await items("/realms/space/storage-classes?names=finance-realm", h);
    expect(byClass.map((r) => [r.name, r.storage_class])).toEqual([
      ["finance-realm", "S500X-S"],
      ["finance-realm", "S500X-A"],
    ]);
    expect((await api("POST", "/realms?names=ops-realm", h)).status).toBe(200);
    expect((await items("/realms/space?names=ops-realm", h)).map((r) => r.name)).toEqual(["ops-realm"]);
    const unknown = await api("GET", "/realms/space?names=no-such-realm", h);
    expect(unknown.status).toBe(400);
    expect(refusal(unknown)).toContain("no-such-realm");
  });

  it("keeps a realm's default object store server apart from the realm", async () => {
    const { h } = await open();
    const before = await items("/realms/defaults?realm_names=finance-realm", h);
    expect(before.map((d) => [d.realm.name, d.object_store])).toEqual([["finance-realm", []]]);
    const object_store = [{ server: { name: "servers-demo" } }];
    const set = await api("PATCH", "/realms/defaults?realm_names=finance-realm", h, { object_store });
    expect(set.status, set.text).toBe(200);
    // The array answers with full references (name, id, resource type) to what it was given by name.
    const stored = (await items("/realms/defaults?realm_names=finance-realm", h))[0]?.object_store;
    expect(
      stored.map((o: { server: { name: string; resource_type: string } }) => [
        o.server.name,
        o.server.resource_type,
      ]),
    ).toEqual([["servers-demo", "servers"]]);
    const realm = (await items("/realms?names=finance-realm", h))[0];
    expect(realm && "object_store" in realm).toBe(false);
    expect((await api("GET", "/realms/defaults?realm_names=no-such-realm", h)).status).toBe(400);
  });
});

describe("network access policy members", () => {
  it("the array is the member of its built-in default policy; anything else is refused", async () => {
    const { h } = await open();
    const rows = await items("/network-access-policies/members", h);
    const name = rows[0]?.member.name;
    expect(rows.map((r) => [r.policy.name, r.member.resource_type])).toEqual([["default", "arrays"]]);
    expect((await items(`/network-access-policies/members?member_names=${name}`, h)).length).toBe(1);
    expect((await api("GET", "/network-access-policies/members?member_names=elsewhere", h)).status).toBe(400);
    expect((await api("GET", "/network-access-policies/members?policy_names=nope", h)).status).toBe(400);
  });
});
