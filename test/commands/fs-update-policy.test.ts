/**
 * `fs update --policy` (issue 46): the card shows exactly what is sent (the settings' PATCH, then the policy's
 * membership, or the membership alone), and once carried out the simulator holds both; a policy already on the
 * file system asks for nothing; an unknown one is refused before any card.
 */
import { describe, expect, test } from "vitest";
import { fileHarness } from "../core/file-harness.js";
import { textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

const h = fileHarness();

/** A live file system no policy protects, and a policy. */
function unprotected(): { fs: string; policy: string } {
  const state = h.sim().state;
  const members = new Set([...state.policies.values()].flatMap((p) => [...p.members]));
  const fs = [...state.fileSystems.values()].find((f) => !f.destroyed && !members.has(f.name))?.name ?? "";
  const policy = [...state.policies.keys()][0] ?? "";
  expect(fs).not.toBe("");
  expect(policy).not.toBe("");
  return { fs, policy };
}

describe("fs update --policy", () => {
  test("changes the settings, then attaches the policy: the card lists both requests", async () => {
    const { fs, policy } = unprotected();
    const line = `fs update ${fs} --nfs-rules "10.9.0.0/16(rw)" --policy ${policy}`;
    const dry = textOf(await h.run("bob", `${line} --dry-run`));
    const patch = dry.indexOf(onWire(`PATCH /api/1.12/file-systems?name=${fs}`));
    const post = dry.indexOf(
      onWire(`POST /api/1.12/policies/file-systems?policy_names=${policy}&member_names=${fs}`),
    );
    expect(patch).toBeGreaterThan(-1);
    expect(post).toBeGreaterThan(patch);
    expect(dry).toMatch(/Snapshot policies\W+none → /);
    // New export rules on a file system serving NFS ask for a Confirm (clients may lose access).
    const done = textOf(await h.click("bob", await h.run("bob", line), "Confirm"));
    expect(done).toContain(`snapshot policy ${policy} attached`);
    expect(h.sim().state.fileSystems.get(fs)?.nfs?.rules).toBe("10.9.0.0/16(rw)");
    expect(textOf(await h.run("carol", `fs show ${fs}`))).toContain(policy);
  });

  test("the policy alone sends its membership alone; once on, it asks for nothing", async () => {
    const { fs, policy } = unprotected();
    const dry = textOf(await h.run("bob", `fs update ${fs} --policy ${policy} --dry-run`));
    expect(dry).not.toContain("PATCH /api/");
    expect(dry).toContain(
      onWire(`POST /api/1.12/policies/file-systems?policy_names=${policy}&member_names=${fs}`),
    );
    await h.run("bob", `fs update ${fs} --policy ${policy}`);
    const again = textOf(await h.run("bob", `fs update ${fs} --policy ${policy}`));
    expect(again).toContain(`Nothing to change on ${fs} (policy ${policy} already protects it)`);
  });

  test("an unknown policy is refused before any card, and nothing is sent", async () => {
    const { fs } = unprotected();
    const before = h.sim().state.fileSystems.get(fs)?.nfs?.rules;
    const out = textOf(await h.run("bob", `fs update ${fs} --nfs-rules "*(ro)" --policy no-such-policy`));
    expect(out).toContain('There is no snapshot policy named "no-such-policy"');
    expect(h.sim().state.fileSystems.get(fs)?.nfs?.rules).toBe(before);
  });
});
