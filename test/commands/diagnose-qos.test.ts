/**
 * `diagnose` names a QoS limit that holds a workload back, on an array that speaks REST 2.x: the demo's
 * qos-bronze (3 MB/s, 5,000 ops/s) holds scratch, whose workload the simulator caps at that limit, read against
 * scratch's performance now. Raised well above the workload, the limit no longer holds it and the finding goes.
 * qos-gold sets no limits (0), and its member is never named; a 1.x array has no QoS policies.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";
import { ensure } from "../helpers/seed-2x.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-one", versions: "1.0-1.12" },
      { name: "fb-two", versions: "2.0-2.28" },
    ],
    simulatorClock: true,
  });
  const two = h.pool.get("fb-two");
  await ensure(h, "fb-two", "/qos-policies", "qos-gold", {
    enabled: true,
    max_total_bytes_per_sec: 0,
    max_total_ops_per_sec: 0,
  });
  // The demo puts scratch under qos-bronze; home joins qos-gold (no limits) through the wire.
  await two.post("/qos-policies/members", {
    query: { policy_names: "qos-gold", member_names: "home", member_types: "file-systems" },
    body: {},
  });
});
afterAll(async () => h.close());

async function findings(line: string): Promise<string> {
  const m = messagesOf(await h.run("carol", line))[0];
  return (m?.blocks ?? []).map((b) => (b.type === "section" ? b.text.markup : "")).join("\n");
}

describe("diagnose names a QoS limit that throttles a workload", () => {
  test("2.x: scratch held at qos-bronze's bandwidth limit is a finding naming the policy and the limit", async () => {
    const text = await findings("diagnose --array fb-two");
    expect(text).toMatch(
      /\*file system scratch is held at its QoS limit\* \(qos-bronze: 2\.86 MiB\/s\), running at (9[5-9]|100)% of it/,
    );
    expect(text).not.toContain("file system home is held");
  });

  test("2.x: a limit far above the workload holds nothing", async () => {
    await h.pool.get("fb-two").patch("/qos-policies", {
      query: { names: "qos-bronze" },
      body: { max_total_bytes_per_sec: 600_000_000 },
    });
    expect(await findings("diagnose --array fb-two")).not.toContain("QoS limit");
  });

  test("1.x: no QoS policies, no such finding", async () => {
    expect(await findings("diagnose --array fb-one")).not.toContain("QoS limit");
  });
});
