import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

// Arrays refuse to destroy a file system that still serves a protocol (docs/fidelity.md), so `fs destroy`
// turns them off in the destroying request, and says so before anyone confirms.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const fs = (name: string) => h.sims.get("lab-1")?.state.fileSystems.get(name);

describe("fs destroy and the protocols still serving", () => {
  test("the impact names them and the planned request turns them off", async () => {
    const text = textOf(await h.run("bob", "fs destroy home --dry-run"));
    expect(text).toContain("home still serves NFS, SMB; the destroy turns them off");
    expect(text).toContain("delete_link_on_eradication=true");
    expect(text).toContain('"nfs":{"v3_enabled":false,"v4_1_enabled":false}');
    expect(fs("home")?.destroyed).toBe(false);
    // Only a file system with a replica link needs the array told to delete the link on eradication.
    const logs = textOf(await h.run("bob", "fs destroy logs --dry-run"));
    expect(logs).toContain("logs still serves NFS, HTTP");
    expect(logs).not.toContain("delete_link_on_eradication");
  });

  test("a confirmed destroy succeeds against an array that enforces it, and recover says they stay off", async () => {
    await h.click("bob", await h.run("bob", "fs destroy home"), "Confirm");
    expect(fs("home")).toMatchObject({ destroyed: true, smb: { enabled: false } });
    expect(fs("home")?.nfs.v3_enabled).toBe(false);
    expect(textOf(await h.run("bob", "fs recover home --dry-run"))).toContain(
      "destroying turned its protocols off, so it serves no clients until you turn them on again",
    );
    expect(textOf(await h.run("bob", "fs recover home"))).toContain(
      "its protocols are off, so it serves no clients until you turn them on",
    );
    expect(fs("home")?.destroyed).toBe(false);
  });
});
