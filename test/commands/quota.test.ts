import { describe, expect, test } from "vitest";
import { quotaKey } from "../../src/simulator/models/quota.js";
import { fileHarness } from "../core/file-harness.js";
import { textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";
import { requestMark, writesSince as writes } from "./sim-requests.js";

const GIB = 2 ** 30;
const h = fileHarness();

const sim = () => h.sim();
const userQuota = (fs: string, uid: number) => sim().state.users.quotas.get(quotaKey(fs, uid))?.quota;
const groupQuota = (fs: string, gid: number) => sim().state.groups.quotas.get(quotaKey(fs, gid))?.quota;
const mark = () => requestMark(sim());
const writesSince = (m: number, path: string) => writes(sim(), m, path);

describe("quota set", () => {
  test("several users, all without a quota yet: one POST selecting them all by name", async () => {
    const m = mark();
    const text = textOf(await h.run("bob", "quota set user erin,frank 200G --fs home"));
    expect(text).toContain("Set the user quota of *erin, frank* on home (lab-1) to 200 GiB.");
    const writes = writesSince(m, "/quotas/users");
    expect(writes).toHaveLength(1);
    expect(writes[0]?.method).toBe("POST");
    expect(new URLSearchParams(writes[0]?.query).get("file_system_names")).toBe("home");
    expect(new URLSearchParams(writes[0]?.query).get("user_names")).toBe("erin,frank");
    expect(userQuota("home", 1005)).toBe(200 * GIB);
    expect(userQuota("home", 1006)).toBe(200 * GIB);
  });

  test("users that already have a quota: one PATCH selecting them by uid", async () => {
    const m = mark();
    const text = textOf(await h.run("bob", "quota set user 1001,1002 150G --fs home"));
    expect(text).toContain("Set the user quota of *alice, bob* on home (lab-1) to 150 GiB.");
    const writes = writesSince(m, "/quotas/users");
    expect(writes.map((w) => w.method)).toEqual(["PATCH"]);
    const q = new URLSearchParams(writes[0]?.query);
    expect([q.get("file_system_names"), q.get("uids"), q.get("user_names")]).toEqual([
      "home",
      "1001,1002",
      null,
    ]);
    expect([userQuota("home", 1001), userQuota("home", 1002)]).toEqual([150 * GIB, 150 * GIB]);
  });

  test("a mix of new and existing: the array's state decides, a POST for the new and a PATCH for the rest", async () => {
    const multi = textOf(await h.run("bob", "quota set user alice 2T --fs home,scratch --dry-run"));
    expect(multi.indexOf(onWire("POST /api/1.12/quotas/users?file_system_names=scratch"))).toBeLessThan(
      multi.indexOf(onWire("PATCH /api/1.12/quotas/users?file_system_names=home")),
    );
    expect(multi).toContain(onWire("POST /api/1.12/quotas/users?file_system_names=scratch"));
    const dry = textOf(await h.run("bob", "quota set group research,ops 12T --fs projects --dry-run"));
    expect(dry).toContain(onWire("POST /api/1.12/quotas/groups?file_system_names=projects&group_names=ops"));
    expect(dry).toContain(
      onWire("PATCH /api/1.12/quotas/groups?file_system_names=projects&group_names=research"),
    );
    expect(groupQuota("projects", 3004)).toBeUndefined();
  });

  test("GIDs and group names together are refused before anything is sent", async () => {
    const before = sim().control.stats().total;
    const text = textOf(await h.run("bob", "quota set group engineering,3002 1T --fs projects"));
    expect(text).toContain("mixes numeric IDs (3002) and names");
    expect(sim().control.stats().total).toBe(before);
  });

  test("a size that is not one is refused before anything is read", async () => {
    const before = sim().control.stats().total;
    const text = textOf(await h.run("bob", "quota set user alice 2X --fs home"));
    expect(text).toContain("Invalid arguments for `quota set`");
    expect(sim().control.stats().total).toBe(before);
  });

  test("below current usage: confirmation, the users over it listed with their usage; runs only once confirmed", async () => {
    const effects = await h.run("bob", "quota set user alice,bob,carol 48G --fs home");
    const card = textOf(effects);
    expect(card).toContain("Confirm: set user quota on home on lab-1");
    expect(card).toContain("alice (UID 1001) on home: stores 95.2 GiB; quota 150 GiB → 48 GiB ⚠ over");
    expect(card).toContain("carol (UID 1003) on home: stores 49.6 GiB; quota 50 GiB → 48 GiB ⚠ over");
    expect(card).toContain("Writes will fail at once for 2 users already above 48 GiB");
    expect(card).not.toContain("bob (UID 1002) on home (stores");
    expect(userQuota("home", 1001)).toBe(150 * GIB);
    const done = textOf(await h.click("bob", effects, "Confirm"));
    expect(done).toContain(
      "Over quota now: alice on home (95.2 GiB stored), carol on home (49.6 GiB stored).",
    );
    expect(userQuota("home", 1003)).toBe(48 * GIB);
    expect(h.audits.at(-1)).toMatchObject({ decision: "confirmed" });
  });

  test("a quota changed by someone else before the confirmation voids the request and says what changed", async () => {
    const effects = await h.run("bob", "quota set group engineering 10T --fs projects");
    expect(textOf(effects)).toContain("Writes will fail at once for 1 group");
    const rec = sim().state.groups.quotas.get(quotaKey("projects", 3001));
    if (!rec) throw new Error("no quota");
    rec.quota = 30 * 2 ** 40;
    const text = textOf(await h.click("bob", effects, "Confirm"));
    expect(text).toContain("Not run: the array lab-1 changed since this was requested.");
    expect(text).toContain("projects/engineering quota: 20 TiB → 30 TiB");
    expect(groupQuota("projects", 3001)).toBe(30 * 2 ** 40);
  });

  test("an unknown file system and a user the directory does not know are answered clearly", async () => {
    expect(textOf(await h.run("bob", "quota set user alice 1T --fs nope"))).toContain(
      'There is no file system named "nope" on array lab-1',
    );
    const before = sim().state.users.quotas.size;
    expect(textOf(await h.run("bob", "quota set user alice,nobody-here 1T --fs home"))).toContain(
      "User 'nobody-here' is not known to the array's directory.",
    );
    // The POST that failed came first, so alice's quota was not changed either.
    expect(sim().state.users.quotas.size).toBe(before);
    expect(userQuota("home", 1001)).toBe(48 * GIB);
  });

  test("a viewer cannot set quotas", async () => {
    expect(textOf(await h.run("carol", "quota set user alice 1T --fs home"))).toContain("operator");
  });
});

describe("quota list", () => {
  test("lists quotas with usage and flags who is over", async () => {
    const text = textOf(await h.run("carol", "quota list user --fs home"));
    expect(text).toContain("user quotas on home on array lab-1");
    expect(text).toMatch(/dave \| 1004 \| 50 GiB \| 62.3 GiB \| 125% \| over quota/);
    expect(text).toContain(
      "Default user quota (applies to everyone without a quota of their own): home 50 GiB.",
    );
  });

  test("a selector matching nothing says so", async () => {
    expect(textOf(await h.run("carol", "quota list group ops --fs finance"))).toContain(
      "No group quotas for ops on finance on array lab-1.",
    );
  });
});

describe("quota delete", () => {
  test("is gated as a delete, lists who the default then blocks, and removes them in one DELETE", async () => {
    const effects = await h.run("bob", "quota delete user dave,bob --fs home");
    const card = textOf(effects);
    expect(card).toContain("Confirm: delete user quota of dave, bob on home on lab-1");
    expect(card).toContain("dave (UID 1004) on home (stores 62.3 GiB)");
    expect(userQuota("home", 1004)).toBe(50 * GIB);
    const m = mark();
    await h.click("bob", effects, "Confirm");
    const writes = writesSince(m, "/quotas/users");
    expect(writes.map((w) => w.method)).toEqual(["DELETE"]);
    expect(new URLSearchParams(writes[0]?.query).get("user_names")).toBe("dave,bob");
    expect(userQuota("home", 1004)).toBeUndefined();
    expect(userQuota("home", 1002)).toBeUndefined();
  });

  test("a user without a quota is answered before anything is sent", async () => {
    const m = mark();
    const text = textOf(await h.run("bob", "quota delete user dave,alice --fs home"));
    expect(text).toContain("dave (UID 1004) on home has no user quota, so there is nothing to delete.");
    expect(text).toContain("only alice (UID 1001) on home has one");
    expect(writesSince(m, "/quotas/users")).toHaveLength(0);
    expect(userQuota("home", 1001)).toBe(48 * GIB);
  });
});

describe("quota defaults and settings", () => {
  test("a default below what users without a quota store is gated and names them", async () => {
    const card = textOf(await h.run("bob", "quota defaults home --user 10G --dry-run"));
    expect(card).toContain("Default user quota: 50 GiB → 10 GiB");
    expect(card).toContain("dave (stores 62.3 GiB)");
    expect(card).toContain(
      onWire('PATCH /api/1.12/file-systems?name=home {"default_user_quota":10737418240}'),
    );
    expect(card).toContain("quota below usage");
  });

  test("removing a default runs at once", async () => {
    expect(textOf(await h.run("bob", "quota defaults media --group none --user 1T"))).toContain(
      "Default quotas of *media* on lab-1: user 1 TiB, group none.",
    );
  });

  test("settings show the notification contact; notify changes it and says when nothing changes", async () => {
    expect(textOf(await h.run("carol", "quota settings"))).toContain("storage-team@example.com");
    const dry = textOf(await h.run("bob", "quota notify --no-direct --contact oncall@example.com --dry-run"));
    expect(dry).toContain(
      onWire(
        'PATCH /api/1.12/quotas/settings {"direct_notifications_enabled":false,"contact":"oncall@example.com"}',
      ),
    );
    expect(textOf(await h.run("bob", "quota notify --no-direct"))).toContain(
      "Quota notifications on lab-1: direct off, contact storage-team@example.com.",
    );
    expect(textOf(await h.run("bob", "quota notify --no-direct"))).toContain("Nothing to change on lab-1");
    expect(textOf(await h.run("carol", "quota settings"))).toContain(
      "direct notifications to users and groups off",
    );
  });

  test("setting a quota to what it already is sends nothing", async () => {
    const m = mark();
    expect(textOf(await h.run("bob", "quota set group finance 2T --fs finance"))).toContain(
      "Nothing to change: the group quota of finance (GID 3003) on finance is already 2 TiB.",
    );
    expect(writesSince(m, "/quotas/groups")).toHaveLength(0);
  });
});
