/**
 * `fs update` beyond on/off protocols: NFSv3 and v4.1 apart, export rules, SMB ACL mode, snapshot directory,
 * fast remove and promotion, each checked against the array's version, against simulators over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FileSystemRec } from "../../src/simulator/models/file-system.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire, queryOf } from "../helpers/wire.js";

let h: Harness;
let old: Harness;
beforeAll(async () => {
  h = await startHarness();
  old = await startHarness({
    arrays: [
      { name: "v15", versions: "1.0-1.5" },
      { name: "v11", versions: "1.0-1.1" },
      { name: "v18", versions: "1.0-1.8" },
      { name: "v110", versions: "1.0-1.10" },
    ],
  });
});
afterAll(async () => {
  await h.close();
  await old.close();
});

const sim = (hh: Harness, array: string) => {
  const s = hh.sims.get(array);
  if (!s) throw new Error(`no simulator ${array}`);
  return s;
};
const rec = (hh: Harness, array: string, name: string): FileSystemRec => {
  const fs = sim(hh, array).state.fileSystems.get(name);
  if (!fs) throw new Error(`no file system ${name}`);
  return fs;
};
/** The file system PATCHes the array received, oldest first. */
const patches = (hh: Harness, array: string) =>
  sim(hh, array)
    .control.stats()
    .recent.filter((r) => r.method === "PATCH" && r.path.endsWith("/file-systems"));

/** Every leaf of a record as "path=value", to tell exactly which fields a change touched. */
function leaves(v: unknown, path = ""): string[] {
  if (v && typeof v === "object")
    return Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k));
  return [`${path}=${JSON.stringify(v)}`];
}
function changedFields(before: FileSystemRec, after: FileSystemRec): string[] {
  const was = new Set(leaves(before));
  return leaves(after)
    .filter((l) => !was.has(l))
    .map((l) => l.slice(0, l.indexOf("=")));
}

/** Runs the command; confirms or has alice approve when it asks; returns the final answer's text. */
async function apply(hh: Harness, text: string): Promise<{ card: string; result: string }> {
  const first = await hh.run("bob", text);
  const card = textOf(first);
  if (card.includes("Approval needed"))
    return { card, result: textOf(await hh.click("alice", first, "Approve")) };
  if (card.includes("Confirm:")) return { card, result: textOf(await hh.click("bob", first, "Confirm")) };
  return { card, result: card };
}

describe("each new setting changes exactly its field, before → after", () => {
  const cases: { cmd: string; fs: string; body: unknown; field: string[]; line: string }[] = [
    {
      cmd: "--nfs-v4",
      fs: "vm-images",
      body: { nfs: { v4_1_enabled: true } },
      field: ["nfs.v4_1_enabled"],
      line: "NFSv4.1: off → on",
    },
    {
      cmd: "--no-nfs-v3",
      fs: "projects",
      body: { nfs: { v3_enabled: false } },
      field: ["nfs.v3_enabled"],
      line: "NFSv3: on → off",
    },
    {
      cmd: "--smb-acl-mode shared",
      fs: "media",
      body: { smb: { acl_mode: "shared" } },
      field: ["smb.acl_mode"],
      line: "SMB ACL mode: native → shared",
    },
    {
      cmd: "--no-snapshot-directory",
      fs: "logs",
      body: { snapshot_directory_enabled: false },
      field: ["snapshot_directory_enabled"],
      line: "Snapshot directory: on → off",
    },
    {
      cmd: "--fast-remove",
      fs: "logs",
      body: { fast_remove_directory_enabled: true },
      field: ["fast_remove_directory_enabled"],
      line: "Fast remove: off → on",
    },
    {
      cmd: '--nfs-rules "10.40.0.0/16(rw,no_root_squash)"',
      fs: "finance",
      body: { nfs: { rules: "10.40.0.0/16(rw,no_root_squash)" } },
      field: ["nfs.rules"],
      line: 'NFS export rules: "10.21.0.0/16(rw,no_root_squash) *(ro)" → "10.40.0.0/16(rw,no_root_squash)"',
    },
  ];
  for (const c of cases) {
    test(`fs update ${c.fs} ${c.cmd}`, async () => {
      const before = structuredClone(rec(h, "lab-1", c.fs));
      const sent = patches(h, "lab-1").length;
      // The impact, before anything is sent: "Label before → after" (--dry-run sends nothing).
      const dry = textOf(await h.run("bob", `fs update ${c.fs} ${c.cmd} --dry-run`));
      // (Slack markup escapes the rules' `*`: compare the part after it.)
      expect(dry).toContain(c.line.includes("*") ? c.line.slice(c.line.indexOf("*") + 1) : c.line);
      expect(patches(h, "lab-1").length).toBe(sent);
      const { result } = await apply(h, `fs update ${c.fs} ${c.cmd}`);
      expect(result).toContain(`Updated ${c.fs} on lab-1: ${c.line}.`);
      const now = patches(h, "lab-1");
      expect(now.length).toBe(sent + 1);
      expect(JSON.parse(now.at(-1)?.body ?? "null")).toEqual(c.body);
      expect(changedFields(before, rec(h, "lab-1", c.fs))).toEqual(c.field);
    });
  }

  test("NFSv3 and v4.1 in one request merge into one nfs object", async () => {
    const dry = textOf(await h.run("bob", "fs update ml-datasets --nfs-v3 --no-nfs-v4 --dry-run"));
    expect(dry).toContain(
      onWire(
        'PATCH /api/1.12/file-systems?name=ml-datasets {"nfs":{"v3_enabled":true,"v4_1_enabled":false}}',
      ),
    );
    expect(dry).toContain("NFSv4.1 on → off");
    expect(textOf(await h.run("bob", "fs update ml-datasets --nfs --nfs-v4"))).toContain(
      "Give either --nfs/--no-nfs (NFS as a whole) or --nfs-v3/--nfs-v4",
    );
  });

  test("export rules are one line of text: empty or with a line break is refused", async () => {
    expect(textOf(await h.run("bob", 'fs update projects --nfs-rules "  "'))).toContain(
      "the export rules are empty",
    );
    expect(textOf(await h.run("bob", 'fs update projects --nfs-rules "*(rw)\u0007x"'))).toContain(
      "control character",
    );
    const acl = textOf(await h.run("bob", "fs update media --smb-acl-mode posix"));
    expect(acl).toMatch(/shared|native/);
    expect(acl).not.toContain("Updated");
  });

  test("new export rules on a file system serving NFS ask for confirmation (disable_protocol); --dry-run sends nothing", async () => {
    const sent = patches(h, "lab-1").length;
    const dry = textOf(await h.run("bob", 'fs update builds --nfs-rules "10.50.0.0/16(rw)" --dry-run'));
    expect(dry).toContain("NFS clients the new export rules no longer match lose access to builds at once.");
    expect(dry).toContain("disable protocol");
    const card = await h.run("bob", 'fs update builds --nfs-rules "10.50.0.0/16(rw)"');
    expect(textOf(card)).toContain("Confirm:");
    expect(patches(h, "lab-1").length).toBe(sent);
    await h.click("bob", card, "Confirm");
    expect(rec(h, "lab-1", "builds").nfs.rules).toBe("10.50.0.0/16(rw)");
  });

  test("rules changed on the array between request and confirmation void the request, naming them", async () => {
    const card = await h.run("bob", 'fs update builds --nfs-rules "10.60.0.0/16(rw)"');
    rec(h, "lab-1", "builds").nfs.rules = "10.70.0.0/16(ro)";
    const sent = patches(h, "lab-1").length;
    const text = textOf(await h.click("bob", card, "Confirm"));
    expect(text).toContain("Not run: the array lab-1 changed since this was requested.");
    expect(text).toContain('nfs export rules: "10.50.0.0/16(rw)" → "10.70.0.0/16(ro)"');
    expect(patches(h, "lab-1").length).toBe(sent);
    expect(rec(h, "lab-1", "builds").nfs.rules).toBe("10.70.0.0/16(ro)");
  });
});

describe("promotion", () => {
  test("demoting is approved before it is sent, with discard_non_snapshotted_data=true, and says what happens", async () => {
    const sent = patches(h, "lab-1").length;
    const first = await h.run("bob", "fs update home --promotion demoted");
    const card = textOf(first);
    expect(card).toContain("Approval needed: update file system home on lab-1");
    expect(card).toContain("Promotion promoted → demoted");
    expect(card).toContain("everything written since is discarded");
    expect(card).toContain("read-only");
    expect(card).toContain(
      onWire(
        'PATCH /api/1.12/file-systems?name=home&discard_non_snapshotted_data=true {"requested_promotion_state":"demoted"}',
      ),
    );
    expect(patches(h, "lab-1").length).toBe(sent);
    expect(rec(h, "lab-1", "home").requested_promotion_state).toBe("promoted");
    const done = textOf(await h.click("alice", first, "Approve"));
    expect(done).toContain("Updated home on lab-1: Promotion: promoted → demoted.");
    const req = patches(h, "lab-1").at(-1);
    expect(req?.query).toBe(
      queryOf("PATCH /api/1.12/file-systems?name=home&discard_non_snapshotted_data=true"),
    );
    expect(JSON.parse(req?.body ?? "null")).toEqual({ requested_promotion_state: "demoted" });
    expect(rec(h, "lab-1", "home")).toMatchObject({ requested_promotion_state: "demoted", writable: false });
    // Promoting back loses nothing: no gate, no discard flag.
    expect((await apply(h, "fs update home --promotion promoted")).result).toContain(
      "Promotion: demoted → promoted",
    );
    expect(patches(h, "lab-1").at(-1)?.query).toBe(queryOf("PATCH /api/1.12/file-systems?name=home"));
  });

  test("a file system without a replica link is refused up front and nothing is sent", async () => {
    const sent = patches(h, "lab-1").length;
    const text = textOf(await h.run("bob", "fs update media --promotion demoted"));
    expect(text).toContain("media has no replica link, so it cannot be demoted");
    expect(text).toContain("Nothing was sent.");
    expect(patches(h, "lab-1").length).toBe(sent);
  });

  test("the simulator refuses a demotion without a link, as an array does", async () => {
    const media = rec(h, "lab-1", "media");
    const client = h.pool.get("lab-1");
    // Planned as `fs update --promotion demoted` plans it, sent as planned, around the command's own checks.
    const plan = await client.fileSystems.planUpdate(
      "media",
      { requested_promotion_state: "demoted" },
      { discardNonSnapshottedData: true },
    );
    const err = await client.send(plan).catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain("no replica link");
    expect(media.requested_promotion_state).toBe("promoted");
  });

  test("on 1.10 the request is requested_promotion_state too; promotion_status is only ever read", async () => {
    const first = await old.run("bob", "fs update home --promotion demoted --array v110");
    await old.click("alice", first, "Approve");
    const req = patches(old, "v110").at(-1);
    expect(req?.path).toBe("/api/1.10/file-systems");
    expect(req?.query).toBe("name=home&discard_non_snapshotted_data=true");
    expect(JSON.parse(req?.body ?? "null")).toEqual({ requested_promotion_state: "demoted" });
    expect(rec(old, "v110", "home").requested_promotion_state).toBe("demoted");
  });

  test("before 1.9 there is no promotion: a version message, nothing sent", async () => {
    for (const want of ["promoted", "demoted"]) {
      const text = textOf(await old.run("bob", `fs update home --promotion ${want} --array v18`));
      expect(text).toContain(
        "promoting or demoting a file system needs REST 1.9, v18 runs 1.8. Nothing was sent.",
      );
    }
    expect(patches(old, "v18")).toEqual([]);
  });
});

describe("older arrays", () => {
  test("NFSv4.1 before 1.6 is a version message and nothing is sent; NFSv3 goes out as `enabled`", async () => {
    const text = textOf(await old.run("bob", "fs update vm-images --nfs-v4 --array v15"));
    expect(text).toContain("switching NFSv4.1 needs REST 1.6, v15 runs 1.5. Nothing was sent.");
    expect(patches(old, "v15")).toEqual([]);
    expect(textOf(await old.run("bob", "fs update media --nfs-v3 --dry-run --array v15"))).toContain(
      'PATCH /api/1.5/file-systems?name=media {"nfs":{"enabled":true}}',
    );
    expect(textOf(await old.run("bob", "fs update home --default-group-quota 1G --array v15"))).toContain(
      "a default group quota needs REST 1.6, v15 runs 1.5. Nothing was sent.",
    );
    expect(patches(old, "v15")).toEqual([]);
  });

  test("export rules and the ACL mode exist from 1.0: sent in the version's spelling, stored faithfully", async () => {
    const { result } = await apply(old, "fs update media --smb-acl-mode shared --array v11");
    expect(result).toContain("SMB ACL mode: native → shared");
    expect(JSON.parse(patches(old, "v11").at(-1)?.body ?? "null")).toEqual({ smb: { "acl-mode": "shared" } });
    expect(rec(old, "v11", "media").smb.acl_mode).toBe("shared");
    await apply(old, 'fs update media --nfs-rules "10.9.0.0/16(ro)" --array v11');
    expect(JSON.parse(patches(old, "v11").at(-1)?.body ?? "null")).toEqual({
      nfs: { rules: "10.9.0.0/16(ro)" },
    });
    expect(rec(old, "v11", "media").nfs.rules).toBe("10.9.0.0/16(ro)");
  });

  test("a hard limit before 1.4 is a version message", async () => {
    expect(textOf(await old.run("bob", "fs update media --hard-limit --array v11"))).toContain(
      "a hard limit needs REST 1.4, v11 runs 1.1. Nothing was sent.",
    );
  });
});
