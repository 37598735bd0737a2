/**
 * `fs create` takes export rules and a snapshot policy (issue 46): the card shows both requests (the create, then
 * the policy's membership), and once carried out the simulator holds the rules and the membership; an unknown
 * policy is refused before any card, naming the policies to pick from.
 */
import { describe, expect, test } from "vitest";
import { fileHarness } from "../core/file-harness.js";
import { textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

const h = fileHarness();

describe("fs create with export rules and a policy", () => {
  test("creates the file system with its rules, then attaches the policy", async () => {
    const policy = [...h.sim().state.policies.keys()][0] ?? "";
    expect(policy).not.toBe("");
    const line = `fs create team-p 1T --nfs-rules "10.0.0.0/8(rw) *(ro)" --policy ${policy}`;
    const dry = textOf(await h.run("bob", `${line} --dry-run`));
    expect(dry).toContain(
      onWire(
        'POST /api/1.12/file-systems {"name":"team-p","provisioned":1099511627776,"nfs":{"rules":"10.0.0.0/8(rw) *(ro)","v3_enabled":true}}',
      ),
    );
    expect(dry).toContain(
      onWire(`POST /api/1.12/policies/file-systems?policy_names=${policy}&member_names=team-p`),
    );
    expect(textOf(await h.run("bob", line))).toContain(`protected by policy ${policy}`);
    expect(h.sim().state.fileSystems.get("team-p")?.nfs?.rules).toBe("10.0.0.0/8(rw) *(ro)");
    expect(textOf(await h.run("carol", "fs show team-p"))).toContain(policy);
  });

  test("an unknown policy is refused before any card", async () => {
    const out = textOf(await h.run("bob", "fs create team-q 1T --policy no-such-policy"));
    expect(out).toContain('There is no snapshot policy named "no-such-policy"');
    expect(h.sim().state.fileSystems.get("team-q")).toBeUndefined();
  });
});
