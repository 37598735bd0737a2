import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ groups: { erin: ["S-storage"] }, restricted: ["dave"] });
});
afterAll(async () => h.close());

function lastAudit() {
  return h.audits.at(-1);
}

function fsOnArray(name: string) {
  return h.sims.get("lab-1")?.state.fileSystems.get(name);
}

describe("roles decide who may run what", () => {
  test("a user with no mapping is denied, and told how to get access", async () => {
    const text = textOf(await h.run("mallory", "fs list"));
    expect(text).toContain("needs the viewer role on array lab-1; you have no role there.");
    expect(text).toContain("Ask an admin to map your Slack user");
    expect(lastAudit()).toMatchObject({
      userId: "mallory",
      command: "fs.list",
      decision: "denied",
      outcome: "error",
      errorCode: "FORBIDDEN",
      arrays: ["lab-1"],
    });
  });

  test("a viewer can look but cannot resize; the array is untouched", async () => {
    expect(textOf(await h.run("carol", "fs show home"))).toContain("12.4 TiB of 20 TiB");
    const text = textOf(await h.run("carol", "fs resize home 30T"));
    expect(text).toContain("`fs resize` needs the operator role on array lab-1; you are a viewer there.");
    expect(fsOnArray("home")?.provisioned).toBe(20 * TIB);
    expect(lastAudit()).toMatchObject({ command: "fs.resize", decision: "denied", errorCode: "FORBIDDEN" });
  });

  test("an operator cannot eradicate", async () => {
    const text = textOf(await h.run("bob", "fs eradicate old-share"));
    expect(text).toContain("`fs eradicate` needs the admin role on array lab-1; you are an operator");
    expect(fsOnArray("old-share")).toBeDefined();
  });

  test("a user-group mapping grants its role", async () => {
    const effects = await h.run("erin", "fs create erin-fs 1T --nfs");
    expect(textOf(effects)).toContain("Created file system *erin-fs* on lab-1: 1 TiB, NFS.");
    expect(fsOnArray("erin-fs")?.provisioned).toBe(TIB);
    expect(lastAudit()).toMatchObject({ command: "fs.create", decision: "allowed", outcome: "ok" });
  });

  test("guests and deactivated users are capped at viewer even when mapped as admin", async () => {
    const text = textOf(await h.run("dave", "fs resize home 30T"));
    expect(text).toContain("you are a viewer there");
  });

  test("help lists only what the caller may run", async () => {
    const viewer = textOf(await h.run("carol", "help fs"));
    const admin = textOf(await h.run("alice", "help fs"));
    expect(viewer).toContain("*list*");
    expect(viewer).not.toContain("*resize*");
    expect(viewer).not.toContain("*eradicate*");
    expect(admin).toContain("*eradicate*");
    expect(textOf(await h.run("mallory", "help"))).toContain("not mapped to any role");
  });

  test("parse failures are answered and audited as invalid", async () => {
    const text = textOf(await h.run("alice", "fs lsit"));
    expect(text).toContain("Did you mean `fs list`?");
    expect(lastAudit()).toMatchObject({ command: "unknown", decision: "invalid", errorCode: "UNKNOWN_VERB" });
  });
});
