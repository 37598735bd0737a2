import { describe, expect, test } from "vitest";
import { alertList } from "../../commands/alert.js";
import { appliedLine } from "../../commands/fs/update.js";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

const TIB = 2 ** 40;
const h = fileHarness();

const fs = (name: string) => h.sim().state.fileSystems.get(name);
/** Runs a command that asks for the requester's confirmation, and confirms it. */
const confirmed = async (user: string, text: string) => {
  const card = await h.run(user, text);
  expect(textOf(card)).toContain("Confirm:");
  return h.click(user, card, "Confirm");
};
const tableOf = async (text: string) => {
  const m = messagesOf(await h.run("carol", text))[0];
  const t = m?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${JSON.stringify(m)}`);
  return { table: t, message: m };
};

describe("fs list", () => {
  test("sorts by live usage, descending with a trailing minus", async () => {
    const { table } = await tableOf("fs list --sort used-");
    expect(table.rows.slice(0, 3).map((r) => r["name"])).toEqual(["backups", "ml-datasets", "projects"]);
  });

  test("filters by a name pattern through the filter builder", async () => {
    const { table } = await tableOf("fs list --name 'b*' --sort name");
    expect(table.rows.map((r) => r["name"])).toEqual(["backups", "builds"]);
  });

  test("quotes in a pattern cannot widen the filter", async () => {
    expect(textOf(await h.run("carol", `fs list --name "x' or name='*"`))).toContain(
      "No file systems matching",
    );
  });

  test("--limit shows that many and says how many exist", async () => {
    const { table } = await tableOf("fs list --limit 3");
    expect(table.rows).toHaveLength(3);
    expect(table.totalRows).toBe(11);
  });

  test("destroyed file systems only with --destroyed", async () => {
    expect(textOf(await h.run("carol", "fs list"))).not.toContain("old-share");
    expect(textOf(await h.run("carol", "fs list --destroyed"))).toContain("old-share (destroyed)");
  });
});

describe("fs show", () => {
  test("space, reduction, protocols, hard limit, snapshots, replica links, created", async () => {
    const text = textOf(await h.run("carol", "fs show finance"));
    for (const part of [
      "File system finance on lab-1",
      "Provisioned: 2 TiB",
      "Used: 1.86 TiB of 2 TiB (93%)",
      "Data reduction: 1.6:1",
      "Protocols: SMB",
      "Hard limit: on",
      "Snapshots:",
      "Replica links:",
      "Created: ",
    ]) {
      expect(text).toContain(part);
    }
  });

  test("a destroyed file system says so and how to recover it", async () => {
    expect(textOf(await h.run("carol", "fs show old-share"))).toContain(
      "Recover it with `/array fs recover old-share`",
    );
  });

  test("an unknown name says where to look", async () => {
    expect(textOf(await h.run("carol", "fs show nope"))).toContain(
      'There is no file system named "nope" on array lab-1',
    );
  });
});

describe("fs create, resize, update", () => {
  test("create: dry run shows the exact POST; the real run creates it; a second create is refused", async () => {
    const dry = textOf(await h.run("bob", "fs create team-a 2T --nfs --hard-limit --dry-run"));
    expect(dry).toContain(
      onWire(
        'POST /api/1.12/file-systems {"name":"team-a","provisioned":2199023255552,"hard_limit_enabled":true,"nfs":{"v3_enabled":true}}',
      ),
    );
    expect(fs("team-a")).toBeUndefined();
    expect(textOf(await h.run("bob", "fs create team-a 2T --nfs --hard-limit"))).toContain(
      "Created file system *team-a* on lab-1: 2 TiB, NFS, hard limit on.",
    );
    expect(fs("team-a")).toMatchObject({ provisioned: 2 * TIB, hard_limit_enabled: true });
    expect(textOf(await h.run("bob", "fs create team-a 1T"))).toContain(
      'A file system named "team-a" already exists',
    );
  });

  test("growing, or shrinking above usage, runs at once", async () => {
    expect(textOf(await h.run("bob", "fs resize vm-images 25T"))).toContain(
      "Resized *vm-images* on lab-1: 30 TiB → 25 TiB.",
    );
    expect(fs("vm-images")?.provisioned).toBe(25 * TIB);
  });

  test("update: protocols off, default quota; nothing to change is an error", async () => {
    const text = textOf(await confirmed("bob", "fs update media --no-smb --http --default-user-quota 10G"));
    expect(text).toContain(
      "Updated *media* on lab-1: SMB: on → off; HTTP: off → on; Default user quota: none → 10 GiB.",
    );
    expect(fs("media")).toMatchObject({
      smb: { enabled: false },
      http: { enabled: true },
      default_user_quota: 10 * 2 ** 30,
    });
    expect(textOf(await h.run("bob", "fs update media --http"))).toContain("Nothing to change on media");
  });

  test("--no-nfs turns every NFS version off (1.6+), reports what the array returned, and is not repeated", async () => {
    const dry = textOf(await h.run("bob", "fs update projects --no-nfs --dry-run"));
    expect(dry).toContain(
      onWire('PATCH /api/1.12/file-systems?name=projects {"nfs":{"v3_enabled":false,"v4_1_enabled":false}}'),
    );
    expect(textOf(await confirmed("bob", "fs update projects --no-nfs"))).toContain(
      "Updated *projects* on lab-1: NFS: on → off.",
    );
    expect(fs("projects")?.nfs).toMatchObject({ v3_enabled: false, v4_1_enabled: false });
    expect(textOf(await h.run("carol", "fs show projects"))).toContain("Protocols: none");
    expect(textOf(await h.run("bob", "fs update projects --no-nfs"))).toContain(
      "Nothing to change on projects",
    );
    expect(textOf(await h.run("bob", "fs update projects --nfs"))).toContain(
      "Updated *projects* on lab-1: NFS: off → on.",
    );
    expect(fs("projects")?.nfs).toMatchObject({ v3_enabled: true, v4_1_enabled: false });
  });

  test("NFS before 1.6 is the single `enabled` switch", async () => {
    const old = await startHarness({ arrays: [{ name: "old-1", versions: "1.0-1.5" }] });
    try {
      expect(textOf(await old.run("bob", "fs update home --no-nfs --dry-run"))).toContain(
        'PATCH /api/1.5/file-systems?name=home {"nfs":{"enabled":false}}',
      );
      const card = await old.run("bob", "fs update home --no-nfs");
      expect(textOf(await old.click("bob", card, "Confirm"))).toContain("NFS: on → off");
      expect(old.sims.get("old-1")?.state.fileSystems.get("home")?.nfs.v3_enabled).toBe(false);
      expect(textOf(await old.run("bob", "fs update home --no-nfs"))).toContain("Nothing to change on home");
    } finally {
      await old.close();
    }
  });

  test("a setting the array did not take is reported as not applied, not as done", () => {
    expect(appliedLine({ label: "NFS", before: "on", after: "off", wanted: "off" })).toBe("NFS: on → off");
    expect(appliedLine({ label: "NFS", before: "on", after: "on", wanted: "off" })).toBe(
      "NFS: still on (asked for off; the array did not apply it)",
    );
  });

  test("turning a hard limit on over usage is gated like a shrink below usage and sends ignore_usage", async () => {
    const card = await h.run("bob", "fs update scratch --hard-limit");
    const text = textOf(card);
    expect(text).toContain("Approval needed: update file system scratch on lab-1");
    expect(text).toContain(onWire("PATCH /api/1.12/file-systems?name=scratch&ignore_usage=true"));
    expect(fs("scratch")?.hard_limit_enabled).toBe(false);
    await h.click("alice", card, "Approve");
    expect(fs("scratch")?.hard_limit_enabled).toBe(true);
  });
});

describe("wording", () => {
  test("counts agree with their nouns: no (s), no '1 bytes', no '0 snapshot(s)'", async () => {
    const eradicate = textOf(await h.run("alice", "fs eradicate old-share --dry-run"));
    expect(eradicate).toContain(
      "Permanent: 4.4 TiB of data in old-share and its 1 snapshot will be lost for good.",
    );
    expect(eradicate).toContain("It is an eradicate action");
    await h.run("bob", "fs create no-snaps 1T");
    await h.click("bob", await h.run("bob", "fs destroy no-snaps"), "Confirm");
    expect(textOf(await h.run("alice", "fs eradicate no-snaps --dry-run"))).toContain(
      "Permanent: 0 B of data in no-snaps will be lost for good.",
    );
    expect(textOf(await h.run("bob", "fs resize scratch 4T --dry-run"))).toContain(
      "it would need 1 approval from someone else",
    );
    expect(textOf(await h.run("bob", "fs resize scratch 0"))).toContain("the size must be at least 1 byte");
    const one = alertList.render(
      [{ array: "lab-1", name: "7", index: 7, severity: "warning", state: "closed" }],
      { state: "closed" } as Parameters<typeof alertList.render>[1],
      { arrays: ["lab-1"], now: 0, timeZone: "UTC" },
    );
    expect(one.text).toBe("1 closed alert on array lab-1");
  });
});

describe("long listings", () => {
  test("show 50 rows, say how many exist, attach everything as CSV", async () => {
    const big = await startHarness({
      arrays: [{ name: "big-1", scenario: { scale: { fileSystems: 180 } } }],
    });
    try {
      const effects = await big.run("carol", "fs list");
      const m = messagesOf(effects)[0];
      const table = m?.blocks.find((b) => b.type === "table");
      expect(table?.type === "table" && table.rows.length).toBe(50);
      expect(table?.type === "table" && table.totalRows).toBe(180);
      const csv = String(m?.attachments?.[0]?.content ?? "");
      expect(m?.attachments?.[0]).toMatchObject({ filename: "file-systems.csv", contentType: "text/csv" });
      expect(csv.trimEnd().split("\r\n")).toHaveLength(181);
      expect(textOf(effects)).toContain("The full list is attached as CSV.");
    } finally {
      await big.close();
    }
  });
});

describe("older arrays", () => {
  test("list and show work on REST 1.0 (no destroyed flag, no replication API)", async () => {
    const old = await startHarness({ arrays: [{ name: "old-1", versions: "1.0" }] });
    try {
      expect(textOf(await old.run("carol", "fs list"))).toMatch(/\d+ file systems on array old-1/);
      const text = textOf(await old.run("carol", "fs show home"));
      expect(text).toContain("File system home on old-1");
      expect(text).toContain("Replica links: none");
    } finally {
      await old.close();
    }
  });
});
