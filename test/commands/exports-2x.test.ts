/**
 * NFS export policies through the real client and the simulator over HTTPS: `fs show` names the policy and its
 * rules in the one "Export rules" field, and `fs mounts` lists the rules in order and decides for one client (first
 * matching rule wins), on a 2.x array and on its 1.x twin alike. The seed uses the demo's names (lab-clients on
 * projects, default on home): the policies through the simulator's 2.x wire, the rules and exports in its
 * collections (their creates take no `names`, which the generic collection keys by).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createConsoleSession } from "../../src/local/console-session.js";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-one", versions: "1.0-1.12" },
      { name: "fb-two", versions: "2.0-2.28" },
    ],
  });
  const projects = h.sims.get("fb-one")?.state.fileSystems.get("projects");
  if (!projects) throw new Error("the demo has projects");
  projects.nfs.rules = "10.20.0.0/16(rw,no_root_squash) *.build.example.com(ro)";
});
afterAll(async () => h.close());

/** What the console prints for `line` typed by carol (a viewer). */
async function say(line: string): Promise<string> {
  const out: string[] = [];
  const s = createConsoleSession({
    pipeline: h.pipeline,
    outcomes: { records: h.audits },
    initialUser: "carol",
    knownUsers: { carol: "viewer" },
    io: { write: (t) => out.push(t), ask: async () => undefined },
  });
  await s.handleLine(`/array ${line}`);
  return out.join("\n");
}

describe("fs show names the export policy and its rules", () => {
  test("2.x: the file system's export policy, its rules in order", async () => {
    expect(await say("fs show projects --array fb-two")).toMatch(
      /Export rules: +policy lab-clients: 10\.20\.0\.0\/16\(rw,no_root_squash\) \*\.build\.example\.com\(ro,root_squash\)/,
    );
    expect(await say("fs show home --array fb-two")).toMatch(
      /Export rules: +policy default: \*\(ro,root_squash\)/,
    );
  });

  test("1.x: the file system's own rule string, in the same field", async () => {
    expect(await say("fs show projects --array fb-one")).toMatch(
      /Export rules: +10\.20\.0\.0\/16\(rw,no_root_squash\) \*\.build\.example\.com\(ro\)/,
    );
  });
});

describe("fs mounts: which clients can mount X", () => {
  for (const array of ["fb-one", "fb-two"])
    test(`${array}: the rules in order, then one client's answer by the first matching rule`, async () => {
      const list = await say(`fs mounts projects --array ${array}`);
      expect(list).toMatch(/1 +10\.20\.0\.0\/16 +rw +no-squash/);
      expect(list).toMatch(/2 +\*\.build\.example\.com +ro +root-squash/);
      expect(list.indexOf("10.20.0.0/16")).toBeLessThan(list.indexOf("*.build.example.com"));
      expect(await say(`fs mounts projects --client 10.20.4.7 --array ${array}`)).toContain(
        "10.20.4.7 may mount projects read-write (no-squash): rule 1",
      );
      expect(await say(`fs mounts projects --client ci-7.build.example.com --array ${array}`)).toContain(
        "ci-7.build.example.com may mount projects read-only (root-squash): rule 2",
      );
      expect(await say(`fs mounts projects --client 10.99.0.1 --array ${array}`)).toContain(
        "10.99.0.1 may not mount projects: no rule of",
      );
    });

  test("2.x: the policy is named as where the answer comes from", async () => {
    expect(await say("fs mounts home --client 10.99.0.1 --array fb-two")).toContain(
      "10.99.0.1 may mount home read-only (root-squash): rule 1 of export policy default, client *.",
    );
  });
});
