import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire, SIM_VERSION } from "../helpers/wire.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1", tags: ["lab"] },
      { name: "lab-2", tags: ["dr"] },
    ],
    config: { channels: { default_array: "lab-1" } },
  });
});
afterAll(async () => h.close());

const snap = (name: string) => h.sims.get("lab-1")?.state.snapshots.get(name);

describe("snapshot commands", () => {
  test("list one file system's snapshots, newest first", async () => {
    const m = messagesOf(await h.run("carol", "snapshot list --fs home --sort created- --limit 3"))[0];
    const table = m?.blocks.find((b) => b.type === "table");
    expect(table?.type === "table" && table.rows.map((r) => r["name"])).toEqual([
      "home.daily.1",
      "home.daily.2",
      "home.daily.3",
    ]);
    expect(m?.text).toContain("of home on array lab-1");
  });

  test("create with a suffix; the dry run shows the query and body", async () => {
    expect(textOf(await h.run("bob", "snapshot create home --suffix pre-upgrade --dry-run"))).toContain(
      onWire('POST /api/1.12/file-system-snapshots?sources=home {"suffix":"pre-upgrade"}'),
    );
    expect(snap("home.pre-upgrade")).toBeUndefined();
    expect(textOf(await h.run("bob", "snapshot create home --suffix pre-upgrade"))).toContain(
      "Created snapshot *home.pre-upgrade* on lab-1.",
    );
    expect(snap("home.pre-upgrade")).toBeDefined();
    expect(textOf(await h.run("bob", "snapshot create home --suffix pre-upgrade"))).toContain(
      "already exists",
    );
  });

  test("destroy asks the requester to confirm, then offers Recover", async () => {
    await h.run("bob", "snapshot create projects --suffix s1");
    const card = await h.run("bob", "snapshot destroy projects.s1");
    expect(textOf(card)).toContain("Confirm: destroy snapshot projects.s1 on lab-1");
    const done = await h.click("bob", card, "Confirm");
    expect(textOf(done)).toContain("Destroyed snapshot *projects.s1* on lab-1.");
    expect(snap("projects.s1")?.destroyed).toBe(true);
    await h.click("bob", done, "Recover projects.s1");
    expect(snap("projects.s1")?.destroyed).toBe(false);
  });

  test("eradicate: only destroyed snapshots, an admin approver, and the typed name", async () => {
    await h.run("bob", "snapshot create projects --suffix s2");
    expect(textOf(await h.run("alice", "snapshot eradicate projects.s2"))).toContain("Destroy it first");
    await h.click("bob", await h.run("bob", "snapshot destroy projects.s2"), "Confirm");
    const card = await h.run("alice", "snapshot eradicate projects.s2");
    expect(textOf(card)).toContain(
      "Permanent: the point-in-time copy projects.s2 cannot be recovered afterwards.",
    );
    await h.click("dave", card, "Approve", "projects.s2");
    expect(snap("projects.s2")).toBeUndefined();
  });
});

describe("arrays", () => {
  test("lists every array with reachability and REST version", async () => {
    const m = messagesOf(await h.run("carol", "arrays"))[0];
    expect(m?.text).toBe("2 of 2 arrays reachable");
    const table = m?.blocks.find((b) => b.type === "table");
    expect(table?.type === "table" && table.rows.map((r) => [r["name"], r["status"], r["version"]])).toEqual([
      ["lab-1", "up", SIM_VERSION],
      ["lab-2", "up", SIM_VERSION],
    ]);
  });

  test("--array makes no sense for it and is refused", async () => {
    expect(textOf(await h.run("carol", "arrays --array lab-1"))).toContain(
      "covers every array; drop --array",
    );
  });
});
