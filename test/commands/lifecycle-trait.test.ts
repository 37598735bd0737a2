/**
 * The catalogue's lifecycle trait: every resource whose items have `destroyed` (the interface's models) and
 * whose path has a PATCH and a DELETE gets destroy / recover / eradicate, and the three behave alike whatever
 * the resource: the same refusals, roles, classes and requests, against the demo array over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { ENDPOINTS } from "../../src/rest-spec/endpoints.js";
import { MODELS } from "../../src/rest-spec/models.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

const registry = createRegistry(RESOURCES);

/** Paths whose GET answers items with `destroyed` and that have a PATCH and a DELETE, from the table. */
const destroyable = ENDPOINTS.filter((e) => {
  if (e.method !== "GET" || !e.response) return false;
  const item = /^list\[(\w+)\]$/.exec(MODELS[e.response]?.fields["items"]?.type ?? "")?.[1];
  const has = (m: string) => ENDPOINTS.some((x) => x.method === m && x.path === e.path);
  return item !== undefined && "destroyed" in (MODELS[item]?.fields ?? {}) && has("PATCH") && has("DELETE");
}).map((e) => e.path);

/** The command that declares it sends `declared`, exactly one. */
function sender(declared: string) {
  const found = registry.all().filter((e) => e.command.endpoints?.includes(declared));
  expect(found.map((e) => e.id)).toHaveLength(1);
  return found[0]?.command;
}

describe("which resources have the trait", () => {
  test("the table's destroyable paths are found (the reader sees something)", () => {
    expect(destroyable.sort()).toEqual(["/buckets", "/file-system-snapshots", "/file-systems"]);
  });

  test.each(destroyable)(
    "%s: destroy, recover and eradicate with the roles and classes of the trait",
    (path) => {
      const destroy = sender(`PATCH ${path} {destroyed: true}`);
      const recover = sender(`PATCH ${path} {destroyed: false}`);
      const eradicate = sender(`DELETE ${path}`);
      expect([destroy?.verb, destroy?.role, destroy?.gateClasses]).toEqual([
        "destroy",
        "operator",
        ["destroy"],
      ]);
      expect([recover?.verb, recover?.role, recover?.gateClasses]).toEqual([
        "recover",
        "operator",
        undefined,
      ]);
      expect([eradicate?.verb, eradicate?.role, eradicate?.gateClasses]).toEqual([
        "eradicate",
        "admin",
        ["eradicate"],
      ]);
    },
  );
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "old-1", versions: "1.0-1.4" }] });
});
afterAll(async () => h.close());

// noun, what it is called, a destroyed object and a live one on the demo array, its path
const NOUNS = [
  ["fs", "file system", "old-share", "home", "/file-systems"],
  ["snapshot", "snapshot", "projects.q3-close", "home.daily.1", "/file-system-snapshots"],
  ["bucket", "bucket", "tmp-export", "veeam-repo", "/buckets"],
] as const;

describe.each(NOUNS)("%s: the generic lifecycle verbs", (noun, title, gone, live, path) => {
  test("destroying what is destroyed names the two ways on", async () => {
    expect(textOf(await h.run("bob", `${noun} destroy ${gone} --array lab-1`))).toContain(
      `${gone} is already destroyed. Recover it with /array ${noun} recover ${gone}, or eradicate it with /array ${noun} eradicate ${gone}.`,
    );
  });

  test("recovering what is live, or what is not there, is refused alike", async () => {
    expect(textOf(await h.run("bob", `${noun} recover ${live} --array lab-1`))).toContain(
      `${live} is not destroyed; there is nothing to recover.`,
    );
    expect(textOf(await h.run("bob", `${noun} recover no-such-${noun} --array lab-1`))).toContain(
      `There is no ${title} named "no-such-${noun}" on lab-1 any more; if it was eradicated it cannot be recovered.`,
    );
  });

  test("eradicating needs a destroyed object; its dry run says what is lost and plans one DELETE", async () => {
    expect(textOf(await h.run("alice", `${noun} eradicate ${live} --array lab-1`))).toContain(
      `${live} is not destroyed. Destroy it first with /array ${noun} destroy ${live}; it can be eradicated afterwards.`,
    );
    const dry = textOf(await h.run("alice", `${noun} eradicate ${gone} --dry-run --array lab-1`));
    expect(dry).toContain("This is permanent: it cannot be recovered afterwards.");
    expect(dry).toContain("Permanent: ");
    expect(dry).toContain(`${onWire(`DELETE /api/1.12${path}`)}?`);
  });
});

test("an array older than the path's PATCH and DELETE is told which version the verb needs; nothing is sent", async () => {
  // Buckets are read from 1.3 but destroyed, recovered and eradicated from 1.5; file systems from 1.1.
  for (const verb of ["destroy", "recover", "eradicate"]) {
    expect(textOf(await h.run("alice", `bucket ${verb} veeam-repo --array old-1`))).toContain(
      `needs REST 1.5, old-1 runs 1.4`,
    );
  }
  expect(textOf(await h.run("alice", "fs destroy home --array old-1"))).toContain("Confirm");
});
