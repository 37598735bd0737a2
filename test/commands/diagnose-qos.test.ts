/**
 * `diagnose` names a QoS limit that holds a workload back, on an array that speaks REST 2.x: the demo's
 * qos-bronze (a bandwidth and an operations limit) applied to scratch, read against scratch's performance now.
 * The policies go through the simulator's 2.x wire, the membership into its collection (the generic create
 * keys by `names`, which a member create does not take); the limit is set just above what scratch
 * does now (its figures follow the simulator's clock, fixed here), so the test holds whatever load the demo gives
 * it. qos-gold sets no limits (0), and its member is never named; a 1.x array has no QoS policies.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";
import { ensure } from "../helpers/seed-2x.js";

let h: Harness;
let bw = 0;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-one", versions: "1.0-1.12" },
      { name: "fb-two", versions: "2.0-2.28" },
    ],
    simulatorClock: true,
  });
  const two = h.pool.get("fb-two");
  const perf = await two.get<Record<string, number>>("/file-systems/performance", {
    query: { names: "scratch" },
  });
  const row = perf.items[0] ?? {};
  bw = (row["read_bytes_per_sec"] ?? 0) + (row["write_bytes_per_sec"] ?? 0);
  if (bw <= 0) throw new Error("the demo's scratch has a workload");
  const bronze = {
    enabled: true,
    max_total_bytes_per_sec: Math.ceil(bw / 0.97),
    max_total_ops_per_sec: 1_000_000_000,
  };
  await ensure(h, "fb-two", "/qos-policies", "qos-bronze", bronze, bronze);
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
  test("2.x: scratch at 97 % of qos-bronze's bandwidth limit is a finding naming the policy and the limit", async () => {
    const text = await findings("diagnose --array fb-two");
    expect(text).toMatch(
      /\*file system scratch is held at its QoS limit\* \(qos-bronze: [\d.]+ [KMGT]?i?B\/s\), running at 9[67]/,
    );
    expect(text).not.toContain("file system home is held");
  });

  test("1.x: no QoS policies, no such finding", async () => {
    expect(await findings("diagnose --array fb-one")).not.toContain("QoS limit");
  });
});
