import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { SlackIdentity } from "../../src/slack/identity.js";
import { PacedSlackClient } from "../../src/slack/paced-client.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

describe("SlackIdentity", () => {
  let fake: FakeSlackApi;
  let client: PacedSlackClient;
  let clock = 1_000_000;

  beforeAll(async () => {
    fake = await FakeSlackApi.start();
    const web = fake.webClient("xoxb-id");
    client = new PacedSlackClient(web, { channelIntervalMs: 0, maxRetries: 0 }, silentLogger());
  });
  afterAll(async () => {
    await client.stop();
    await fake.close();
  });

  const identity = (groupIds: string[], log = silentLogger()) =>
    new SlackIdentity(
      client,
      { groupIds, refreshMs: 60_000, userInfoTtlMs: 300_000, retryMs: 30_000, now: () => clock },
      log,
    );

  it("loads each configured group once and answers from the cache", async () => {
    fake.groups.set("SOPS", ["U1", "U2"]);
    fake.groups.set("SADM", ["U2"]);
    const id = identity(["SOPS", "SADM"]);
    const before = fake.callsOf("usergroups.users.list").length;
    const [a, b] = await Promise.all([id.groupsOf("U2"), id.groupsOf("U1")]);
    expect(a).toEqual(["SOPS", "SADM"]);
    expect(b).toEqual(["SOPS"]);
    expect(await id.groupsOf("U9")).toEqual([]);
    expect(fake.callsOf("usergroups.users.list").length - before).toBe(2);
  });

  it("applies subteam_members_changed deltas and refetches on subteam_updated", async () => {
    fake.groups.set("SX", ["U1"]);
    const log = memoryLogger();
    const id = identity(["SX"], log.logger);
    expect(await id.groupsOf("U3")).toEqual([]);
    id.membersChanged({ subteam_id: "SX", added_users: ["U3"], removed_users: ["U1"] });
    expect(await id.groupsOf("U3")).toEqual(["SX"]);
    expect(await id.groupsOf("U1")).toEqual([]);
    expect(log.lines.find((l) => l["msg"] === "user group membership changed")).toMatchObject({
      added: ["U3"],
      removed: ["U1"],
    });

    fake.groups.set("SX", ["U4"]);
    await id.groupUpdated("SX");
    expect(await id.groupsOf("U4")).toEqual(["SX"]);
    expect(await id.groupsOf("U3")).toEqual([]);
    // Groups the config does not use are ignored.
    id.membersChanged({ subteam_id: "SOTHER", added_users: ["U3"] });
    expect(await id.groupsOf("U3")).toEqual([]);
  });

  it("picks up membership changes on the periodic refresh even without events", async () => {
    fake.groups.set("SREF", ["U1"]);
    const id = identity(["SREF"]);
    expect(await id.groupsOf("U5")).toEqual([]);
    fake.groups.set("SREF", ["U1", "U5"]);
    expect(await id.groupsOf("U5")).toEqual([]);
    await id.refreshAll();
    expect(await id.groupsOf("U5")).toEqual(["SREF"]);
  });

  it("treats a group that cannot be loaded as empty, and tries again later", async () => {
    const id = identity(["SPAID"]);
    fake.script("usergroups.users.list", { error: "plan_upgrade_required" });
    fake.groups.set("SPAID", ["U1"]);
    expect(await id.groupsOf("U1")).toEqual([]);
    const calls = fake.callsOf("usergroups.users.list").length;
    expect(await id.groupsOf("U1")).toEqual([]);
    expect(fake.callsOf("usergroups.users.list").length).toBe(calls);
    clock += 31_000;
    expect(await id.groupsOf("U1")).toEqual(["SPAID"]);
  });

  it("limits guests, deactivated users and failed lookups; caches users.info", async () => {
    fake.users.set("UG", { id: "UG", is_restricted: true });
    fake.users.set("UU", { id: "UU", is_ultra_restricted: true });
    fake.users.set("UD", { id: "UD", deleted: true });
    fake.users.set("UOK", { id: "UOK" });
    const log = memoryLogger();
    const id = identity([], log.logger);
    expect(await id.isRestricted("UG")).toBe(true);
    expect(await id.isRestricted("UU")).toBe(true);
    expect(await id.isRestricted("UD")).toBe(true);
    expect(await id.isRestricted("UOK")).toBe(false);
    expect(log.lines.filter((l) => l["msg"] === "user limited to viewer").map((l) => l["reason"])).toEqual([
      "guest",
      "single-channel guest",
      "deactivated",
    ]);

    const calls = fake.callsOf("users.info").length;
    expect(await id.isRestricted("UOK")).toBe(false);
    expect(fake.callsOf("users.info").length).toBe(calls);

    fake.script("users.info", { error: "user_not_found" });
    expect(await id.isRestricted("UNEW")).toBe(true);
    // A failure is not cached: the next lookup asks again.
    expect(await id.isRestricted("UNEW")).toBe(false);

    // Concurrent lookups of someone new share one users.info call.
    fake.users.set("UBURST", { id: "UBURST", is_restricted: true });
    const before = fake.callsOf("users.info").length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => id.isRestricted("UBURST")));
    expect(answers).toEqual([true, true, true, true, true]);
    expect(fake.callsOf("users.info").length).toBe(before + 1);

    // Deactivation shows up once the cached answer ages out.
    fake.users.set("UOK", { id: "UOK", deleted: true });
    clock += 301_000;
    expect(await id.isRestricted("UOK")).toBe(true);
  });
});
