/**
 * The array's rules behind the 2.x-only verbs of 1.x nouns and the generic verbs' query options, kept by the
 * simulator with its resources and shown on the card (through the real client over HTTPS, on the demo pinned to
 * 2.x): the last DNS configuration stays, an enforced quota below usage needs --ignore-usage, a rule the action
 * restrictions would ignore is refused when asked, a built-in access policy stays, a rename needs a free name.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, textOf } from "../core/harness.js";
import { runThroughGates, startGenerationsHarness } from "./demo-examples.js";

let h: Harness;
beforeAll(async () => {
  h = await startGenerationsHarness();
});
afterAll(async () => h.close());

const run = async (line: string) => textOf(await runThroughGates(h, `${line} --array new2`));

describe("DNS configurations (REST 2.16+)", () => {
  test("a 1.x array still answers one configuration, its own", async () => {
    const one = textOf(await h.run("alice", "api GET /dns --array gen1"));
    expect(one).toContain("1 item");
    expect(one).not.toContain("dns-data");
    expect(textOf(await h.run("alice", "api GET /dns --array new2"))).toContain("dns-data");
  });

  test("one is removed through its gate, and the array refuses removing the last", async () => {
    expect(await run("dns delete dns-data")).toContain("Deleted dns dns-data on new2.");
    const last = await run("dns delete new2");
    expect(last).toContain("The last item of /dns cannot be deleted");
    expect(textOf(await h.run("alice", "dns show --array new2"))).toContain("10.21.0.53");
  });
});

describe("an account's quota (REST 2.8+)", () => {
  test("an enforced quota below what the account holds is refused without --ignore-usage, on the card", async () => {
    const refused = await run(
      "object-account update analytics --quota-limit 1099511627776 --hard-limit-enabled",
    );
    expect(refused).toContain("more than the quota of 1099511627776; give 'ignore_usage=true'");
    const dry = textOf(
      await h.run(
        "alice",
        "object-account update analytics --quota-limit 1099511627776 --hard-limit-enabled --ignore-usage --array new2 --dry-run",
      ),
    );
    expect(dry).toContain("PATCH /api/2.28/object-store-accounts?names=analytics&ignore_usage=true");
    expect(
      await run(
        "object-account update analytics --quota-limit 1099511627776 --hard-limit-enabled --ignore-usage",
      ),
    ).toContain("Updated object store account analytics on new2.");
    expect(textOf(await h.run("alice", "object-account show analytics --array new2"))).toContain(
      "1099511627776",
    );
  });
});

describe("account access policies and their rules (REST 2.2+)", () => {
  test("a viewer is refused deleting one; a built-in policy is refused by the array", async () => {
    expect(textOf(await h.run("carol", "object-policy delete analytics/etl-read --array new2"))).toContain(
      "needs the admin role",
    );
    expect(await run("object-policy delete pure:policy/full-access")).toContain(
      "is built in and cannot be changed",
    );
  });

  test("with --enforce-action-restrictions the array refuses a rule it would partly ignore", async () => {
    const line =
      "object-store-access-policy rule create lb analytics/etl-read --actions s3:ListBucket --resources etl/x";
    expect(await run(`${line} --enforce-action-restrictions`)).toContain(
      "Action 's3:ListBucket' applies to buckets and is ignored on object resource 'etl/x'.",
    );
    expect(await run(line)).toContain(
      "Created object-store-access-policy rule lb / analytics/etl-read on new2.",
    );
  });
});

describe("a workload preset's rename", () => {
  test("renames onto a free name and refuses a taken one", async () => {
    expect(await run("preset workload update workload-demo --new-name workload-old")).toContain(
      "'workload-old' already exists.",
    );
    expect(await run("preset workload update workload-demo --new-name workload-gold")).toContain(
      "workload-demo → workload-gold",
    );
    expect(textOf(await h.run("alice", "preset workload list --array new2"))).toContain("workload-gold");
  });
});
