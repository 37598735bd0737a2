/**
 * A 1.x noun gains the operations only REST 2.x has on its own path (rest2Methods), and a generic verb offers
 * the documented query options of its endpoint as typed options (queryOptions), through the real client and the
 * simulator over HTTPS: a 1.x array is told which 2.x version has the verb, a viewer is refused, a dry run shows
 * the exact request with its query options, the real run through its gate changes the array, and the simulator
 * refuses what the array refuses, on the card.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, textOf } from "../core/harness.js";
import { runThroughGates, startGenerationsHarness } from "./demo-examples.js";

let h: Harness;
beforeAll(async () => {
  h = await startGenerationsHarness();
});
afterAll(async () => h.close());

const changes = (array: string) =>
  h.sims
    .get(array)
    ?.control.stats()
    .recent.filter((r) => r.method !== "GET" && !r.path.endsWith("/login"))
    .map((r) => `${r.method} ${r.path}`) ?? [];

const reset = () => {
  for (const s of h.sims.values()) s.control.resetStats();
};

describe("a 1.x noun's 2.x-only verbs", () => {
  test("on a 1.x array say which 2.x version has them, sending nothing", async () => {
    reset();
    const text = textOf(await h.run("alice", "admin create jlee --role readonly --password --array gen1"));
    expect(text).toContain("`admin create` is not in REST 1.x (it exists from REST 2.15), gen1 runs 1.12");
    expect(changes("gen1")).toEqual([]);
  });

  test("a viewer is refused adding or removing an admin, and nothing changes", async () => {
    reset();
    expect(textOf(await h.run("carol", "admin delete contractor --array new2"))).toContain(
      "needs the admin role",
    );
    expect(changes("new2")).toEqual([]);
  });

  test("adding an admin asks its password privately: the card shows a placeholder, the array gets the value", async () => {
    reset();
    const dry = textOf(
      await h.run("alice", "admin create jlee --role readonly --password --array new2 --dry-run"),
    );
    expect(dry).toContain(
      'POST /api/2.28/admins?names=jlee {"role":{"name":"readonly"},"password":"(typed in a private dialog)"}',
    );
    expect(changes("new2")).toEqual([]);
    const done = textOf(
      await runThroughGates(h, "admin create jlee --role readonly --password --array new2"),
    );
    expect(done).toContain("Created admin jlee on new2.");
    expect(done).not.toContain("J0in-The-Domain!");
    expect(textOf(await h.run("alice", "admin list --array new2"))).toContain("jlee");
  });

  test("the simulator refuses removing the built-in pureuser, on the card", async () => {
    const text = textOf(await runThroughGates(h, "admin delete pureuser --array new2"));
    expect(text).toContain("Admin 'pureuser' is built in and cannot be deleted.");
    expect(textOf(await h.run("alice", "admin list --array new2"))).toContain("pureuser");
  });
});

describe("query options of the generic verbs", () => {
  test("a dry run of a release shows --paths and --released on the request line, sending nothing", async () => {
    reset();
    const text = textOf(
      await h.run(
        "alice",
        "legal-hold held-entity update hold-audit-2026 finance --paths /ledgers/2025 --released --array new2 --dry-run",
      ),
    );
    expect(text).toContain(
      "PATCH /api/2.28/legal-holds/held-entities?names=hold-audit-2026&file_system_names=finance&paths=%2Fledgers%2F2025&released=true",
    );
    expect(text).toContain("eradicate action");
    expect(changes("new2")).toEqual([]);
  });

  test("releasing through the admin's approval releases the path on the array", async () => {
    const list = "legal-hold held-entity list --array new2";
    expect(textOf(await h.run("alice", list))).toMatch(/\/ledgers\/2025[^\n]*applied/);
    await runThroughGates(
      h,
      "legal-hold held-entity update hold-audit-2026 finance --paths /ledgers/2025 --released --array new2",
    );
    // A released path is no longer held: the array's list of held paths leaves it out.
    expect(textOf(await h.run("alice", list))).not.toContain("/ledgers/2025");
  });

  test("a paths value is validated before any card: an empty list is refused", async () => {
    reset();
    const text = textOf(
      await h.run("alice", 'legal-hold held-entity create hold-audit-2026 finance --paths "," --array new2'),
    );
    expect(text).toContain("give at least one value");
    expect(changes("new2")).toEqual([]);
  });

  test("replicate now is a query option of a bodiless PATCH, refused by the array on an unknown link", async () => {
    const dry = textOf(
      await h.run("alice", "replica-link fs update projects fb-dr-01 --replicate-now --array new2 --dry-run"),
    );
    expect(dry).toContain(
      "PATCH /api/2.28/file-system-replica-links?local_file_system_names=projects&remote_names=fb-dr-01&replicate_now=true",
    );
    const text = textOf(
      await runThroughGates(h, "replica-link fs update home fb-nowhere --replicate-now --array new2"),
    );
    expect(text).toMatch(/refused|no replica-link|There is no/);
  });
});
