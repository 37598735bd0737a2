/**
 * Time-bound access on a store shared by replicas (issue 45): a grant approved through one replica's pipeline is
 * in force on another's at once, ends by itself at its time on both, and a revoke on either ends it everywhere.
 * Two pipelines over one real redis-server, each with its own connection.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { changeControlRecords } from "../../src/core/change-control/records.js";
import { openRedisStore } from "../../src/store/redis.js";
import type { Store } from "../../src/store/types.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";

let redis: RedisServer;
const stores: Store[] = [];
const harnesses: Harness[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const h of harnesses) await h.close();
  for (const s of stores) await s.close();
  await redis.close();
});

const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 3_600_000;

test("a grant made on one replica holds on the other, and ends on both by itself or by a revoke", async () => {
  let now = START;
  const config = {
    access: { admin: { users: ["alice"] }, viewer: { users: ["carol"] } },
    access_requests: {
      rules: [{ roles: ["operator" as const], max: "4h", approvers: { users: ["alice"] } }],
    },
  };
  const replica = async () => {
    // Each replica its own connection; the store's expiry reads the same injected clock as the pipelines.
    const store = openRedisStore({
      host: "127.0.0.1",
      port: redis.port,
      keyPrefix: "grants:",
      now: () => now,
    });
    stores.push(store);
    const h = await startHarness({ config, changeControl: changeControlRecords(store) });
    harnesses.push(h);
    return h;
  };
  const [one, two] = [await replica(), await replica()];
  const card = await one.run(
    "carol",
    'access request operator --array lab-1 --for 1h --reason "INC-5 shared"',
  );
  await one.click("alice", card, "Approve");
  expect(textOf(await two.run("carol", "access list"))).toContain("INC-5 shared");
  expect(textOf(await two.run("carol", "fs create on-two 1T --nfs"))).toContain("Created");
  // An hour later the grant has ended on both, with nobody revoking it.
  now = START + HOUR + 1;
  one.clock.now = two.clock.now = now;
  expect(textOf(await two.run("carol", "fs create late 1T --nfs"))).toContain("needs the operator role");
  expect(textOf(await one.run("carol", "access list"))).toContain("No access grant is in force");
  // A new grant, revoked on one replica, is gone on the other.
  const again = await two.run(
    "carol",
    'access request operator --array lab-1 --for 1h --reason "INC-6 again"',
  );
  await two.click("alice", again, "Approve");
  expect(textOf(await one.run("alice", "access revoke carol"))).toContain("Ended 1 grant");
  expect(textOf(await two.run("carol", "fs create after 1T --nfs"))).toContain("needs the operator role");
});
