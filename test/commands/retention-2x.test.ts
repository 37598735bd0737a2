/**
 * WORM data policies and legal holds on the impact of `fs destroy` / `fs eradicate`: on an array that speaks
 * REST 2.x the card refuses, in one sentence naming the policy and until when (or the hold and its path), and
 * nothing is sent; its 1.x twin (no such families) behaves as before. The simulator's demo seed holds
 * them (worm-7y on finance, hold-audit-2026 on /ledgers/2025), put there through its own rules.
 * Seven years of 365 days from 2026-11-28 end on 2033-11-26 (two leap days between).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-one", versions: "1.0-1.12" },
      { name: "fb-two", versions: "2.0-2.28" },
    ],
    simulatorClock: true,
  });
  h.clock.now = Date.UTC(2026, 10, 28, 12, 0, 0);
});
afterAll(async () => h.close());

const destroyed = (array: string, fs: string) => h.sims.get(array)?.state.fileSystems.get(fs)?.destroyed;

describe("fs destroy and eradicate on a retained file system", () => {
  test("a 2.x array: the card refuses with the WORM policy, its end, and the hold; nothing is sent", async () => {
    const text = textOf(await h.run("alice", "fs destroy finance --array fb-two"));
    expect(text).toContain(
      "The array will refuse this: file system finance is under WORM policy worm-7y, retained until 2033-11-26; held by legal hold hold-audit-2026 (path /ledgers/2025).",
    );
    expect(text).toContain("Nothing was sent.");
    expect(text).not.toMatch(/Confirm|Approve/);
    expect(destroyed("fb-two", "finance")).toBe(false);
  });

  test("eradicating a destroyed retained file system is refused the same way", async () => {
    const fs = h.sims.get("fb-two")?.state.fileSystems.get("finance");
    if (!fs) throw new Error("the demo has finance");
    fs.destroyed = true;
    try {
      const text = textOf(await h.run("alice", "fs eradicate finance --array fb-two"));
      expect(text).toContain("file system finance is under WORM policy worm-7y, retained until 2033-11-26");
      expect(text).toContain("held by legal hold hold-audit-2026 (path /ledgers/2025)");
      expect(h.sims.get("fb-two")?.state.fileSystems.has("finance")).toBe(true);
    } finally {
      fs.destroyed = false;
    }
  });

  test("a file system nothing retains on the same 2.x array gets its usual card", async () => {
    const text = textOf(await h.run("alice", "fs destroy scratch --array fb-two --dry-run"));
    expect(text).not.toContain("will refuse");
    expect(text).toContain("PATCH /api/2.28/file-systems?names=scratch");
  });

  test("a snapshot of a file system with a held path is refused the same way; one of another is not", async () => {
    const snaps = [...(h.sims.get("fb-two")?.state.snapshots.values() ?? [])];
    const held = snaps.find((x) => x.source === "finance" && !x.destroyed);
    const free = snaps.find((x) => x.source === "home" && !x.destroyed);
    if (!held || !free) throw new Error("the demo has snapshots of finance and home");
    const text = textOf(await h.run("alice", `snapshot destroy ${held.name} --array fb-two`));
    expect(text).toContain(
      "The array will refuse this: held by legal hold hold-audit-2026 (path /ledgers/2025).",
    );
    expect(h.sims.get("fb-two")?.state.snapshots.get(held.name)?.destroyed).toBe(false);
    expect(
      textOf(await h.run("alice", `snapshot destroy ${free.name} --array fb-two --dry-run`)),
    ).not.toContain("will refuse");
  });

  test("a 1.x array (no WORM or hold families) is unchanged", async () => {
    const text = textOf(await h.run("alice", "fs destroy finance --array fb-one --dry-run"));
    expect(text).not.toContain("will refuse");
    expect(text).toContain("PATCH /api/1.12/file-systems?name=finance");
  });
});
