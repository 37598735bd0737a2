/**
 * A bucket replica link to an array the bot manages is checked against that array before any card or request:
 * the remote bucket must exist there, live and versioned. On the console's demo pair (fb-lab-01 → fb-dr-01).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { type Harness, textOf } from "../core/harness.js";
import { wirePath } from "../helpers/wire.js";
import { errorMessage, openSim } from "../simulator/server-helpers.js";
import { startDemoHarness } from "./demo-examples.js";
import { requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

const sim = (name: string): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};
const CREATE = "bucket-link create analytics-raw --remote fb-dr-01 --credentials fb-dr-01/repl-creds";

describe("bucket-link create checks the remote bucket", () => {
  test("a remote bucket fb-dr-01 lacks is refused before a card, dry run included, with the command to make it", async () => {
    const m = requestMark(sim("fb-lab-01"));
    for (const dry of ["", " --dry-run"]) {
      const text = textOf(await h.run("bob", `${CREATE}${dry}`));
      expect(text).toContain(
        "fb-dr-01 has no bucket `analytics-raw`; create it there first: `/array bucket create analytics-raw --account analytics --versioning enabled --array fb-dr-01`",
      );
      expect(text).not.toMatch(/Confirm/);
    }
    expect(writesSince(sim("fb-lab-01"), m, "/bucket-replica-links")).toHaveLength(0);
    expect(await h.store.listOpen()).toEqual([]);
  });

  test("a remote bucket without versioning is refused with the command that enables it", async () => {
    const b = sim("fb-dr-01").state.buckets.get("analytics-raw-dr");
    if (!b) throw new Error("no analytics-raw-dr on fb-dr-01");
    b.versioning = "suspended";
    try {
      expect(textOf(await h.run("bob", `${CREATE} --remote-bucket analytics-raw-dr`))).toContain(
        "Bucket `analytics-raw-dr` on fb-dr-01 has versioning suspended; replication needs it enabled there: `/array bucket update analytics-raw-dr --versioning enabled --array fb-dr-01`",
      );
    } finally {
      b.versioning = "enabled";
    }
  });

  test("a live, versioned remote bucket gets its link", async () => {
    const text = textOf(await h.run("bob", `${CREATE} --remote-bucket analytics-raw-dr`));
    expect(text).toContain(
      "Created bucket replica link analytics-raw → fb-dr-01:analytics-raw-dr on fb-lab-01",
    );
  });
});

describe("the simulator refuses a link to a bucket its connected peer lacks, as an array does", () => {
  test("POST /bucket-replica-links names the missing or unversioned remote bucket; a ready one is linked", async () => {
    const src = await openSim({ scenario: "demo", arrayName: "fb-lab-01" });
    const dst = await startSimulator({ scenario: "demo-dr", arrayName: "fb-dr-01" });
    try {
      const conn = [...src.sim.state.arrayConnections.values()].find((c) => c.remote.name === "fb-dr-01");
      if (!conn) throw new Error("no connection to fb-dr-01");
      conn.management_address = new URL(dst.url).host;
      const token = await src.login();
      const post = (remoteBucket: string) =>
        src.call(
          "POST",
          wirePath(
            "POST",
            `/api/1.12/bucket-replica-links?local_bucket_names=analytics-raw&remote_bucket_names=${remoteBucket}&remote_credentials_names=fb-dr-01/repl-creds`,
          ),
          { headers: { "x-auth-token": token, "content-type": "application/json" }, body: "{}" },
        );
      const missing = await post("nope");
      expect(missing.status).toBe(400);
      expect(errorMessage(missing)).toContain("Remote bucket 'nope' does not exist on 'fb-dr-01'.");
      const b = dst.state.buckets.get("analytics-raw-dr");
      if (!b) throw new Error("no analytics-raw-dr");
      b.versioning = "none";
      const unversioned = await post("analytics-raw-dr");
      expect(errorMessage(unversioned)).toContain("does not have versioning enabled");
      b.versioning = "enabled";
      expect((await post("analytics-raw-dr")).status).toBe(200);
    } finally {
      await src.sim.close();
      await dst.close();
    }
  });
});
