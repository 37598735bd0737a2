/**
 * Operations only REST 2.x has, modelled by the resource they belong to rather than served by the generic
 * collection, over the 2.x wire: an account's object store access policies with their rules (2.2+), and deleting
 * a file system replica link (2.10+). Pure's 2.x SDK drives the same in test/conformance/flows_2x_*.py.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

type Item = Record<string, unknown> & { name: string };
interface Answer {
  status: number;
  items: Item[];
  message: string;
}

/** A 2.24 call with a session on a fresh demo array; its items, or its first error message. */
async function open(): Promise<(method: string, path: string, body?: unknown) => Promise<Answer>> {
  c = await openSim({ versions: "2.0-2.24" });
  const sim = c;
  const token = await sim.login();
  return async (method, path, body) => {
    const r = await sim.call(method, `/api/2.24${path}`, {
      headers: { "x-auth-token": token, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (r.text ? r.json() : {}) as { items?: Item[]; errors?: { message: string }[] };
    return { status: r.status, items: json.items ?? [], message: json.errors?.[0]?.message ?? "" };
  };
}

const POLICY = "analytics/readers";
const READ = { name: "read", actions: ["s3:GetObject"], effect: "allow", resources: ["*"] };
const names = (a: Answer) => a.items.map((i) => i.name);

describe("object store access policies of an account (2.2+)", () => {
  it("a policy made with its rules is listed beside the built-in ones, and its rules are its own", async () => {
    const api = await open();
    const made = await api("POST", `/object-store-access-policies?names=${POLICY}`, { rules: [READ] });
    expect(made.items[0]).toMatchObject({
      name: POLICY,
      account: { name: "analytics" },
      rules: [{ name: "read" }],
    });
    const listed = names(await api("GET", "/object-store-access-policies"));
    expect(listed).toEqual(expect.arrayContaining([POLICY, "pure:policy/full-access"]));
    const rules = `/object-store-access-policies/rules?policy_names=${POLICY}`;
    expect(
      (await api("POST", `${rules}&names=list`, { actions: ["s3:ListBucket"], resources: ["*"] })).status,
    ).toBe(200);
    await api("PATCH", `${rules}&names=list`, { resources: ["arn:aws:s3:::analytics-raw"] });
    const both = (await api("GET", rules)).items.map((r) => [
      r.name,
      r["effect"],
      r["resources"],
      r["policy"],
    ]);
    expect(both).toEqual([
      ["read", "allow", ["*"], expect.objectContaining({ name: POLICY })],
      ["list", "allow", ["arn:aws:s3:::analytics-raw"], expect.objectContaining({ name: POLICY })],
    ]);
    expect(
      (await api("GET", `/object-store-access-policies?names=${POLICY}`)).items[0]?.["rules"],
    ).toHaveLength(2);
    await api("DELETE", `${rules}&names=read`);
    expect(names(await api("GET", rules))).toEqual(["list"]);
    expect((await api("DELETE", `/object-store-access-policies?names=${POLICY}`)).status).toBe(200);
    expect(names(await api("GET", "/object-store-access-policies"))).not.toContain(POLICY);
  });

  it("refuses an unknown account, changing a built-in policy and deleting one still attached", async () => {
    const api = await open();
    expect((await api("POST", "/object-store-access-policies?names=nobody/p")).message).toMatch(
      /account 'nobody' does not exist/,
    );
    const builtIn = await api(
      "POST",
      "/object-store-access-policies/rules?names=x&policy_names=pure:policy/full-access",
      READ,
    );
    expect([builtIn.status, builtIn.message]).toEqual([400, expect.stringMatching(/built in/)]);
    await api("POST", `/object-store-access-policies?names=${POLICY}`);
    await api("POST", "/object-store-users?names=analytics/reader");
    await api(
      "POST",
      `/object-store-access-policies/object-store-users?policy_names=${POLICY}&member_names=analytics/reader`,
    );
    const held = await api("DELETE", `/object-store-access-policies?names=${POLICY}`);
    expect([held.status, held.message]).toEqual([
      400,
      expect.stringMatching(/attached to analytics\/reader/),
    ]);
  });
});

describe("deleting a file system replica link (2.10+)", () => {
  it("deletes the selected link and its policy attachments, and keeps the file system", async () => {
    const api = await open();
    const before = (await api("GET", "/file-system-replica-links")).items;
    const home = before.find((l) => (l["local_file_system"] as Item).name === "home");
    const remote = (home?.["remote"] as Item | undefined)?.name;
    expect(remote).toBeDefined();
    const done = await api(
      "DELETE",
      `/file-system-replica-links?local_file_system_names=home&remote_names=${remote}`,
    );
    expect(done.status).toBe(200);
    const after = (await api("GET", "/file-system-replica-links")).items;
    expect(after.map((l) => l["id"])).not.toContain(home?.["id"]);
    expect(after).toHaveLength(before.length - 1);
    const attached = (await api("GET", "/policies/file-system-replica-links")).items;
    expect(attached.map((m) => (m["member"] as Item).name)).not.toContain("home");
    expect(names(await api("GET", "/file-systems?names=home"))).toEqual(["home"]);
  });

  it("refuses a delete that selects nothing, and a name no link has", async () => {
    const api = await open();
    expect((await api("DELETE", "/file-system-replica-links")).message).toMatch(/Select links/);
    expect((await api("DELETE", "/file-system-replica-links?local_file_system_names=media")).message).toMatch(
      /No file system replica link matches/,
    );
  });
});
