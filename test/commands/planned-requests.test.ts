/**
 * The request shown is the request sent: for each file system and snapshot change, the line `--dry-run` shows is byte for byte
 * the request the simulator then receives (method, path, query, body), on a current array and on one before the
 * 1.6 NFS split, and for gated changes the approval card shows the same line.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "old-1", versions: "1.0-1.5" }],
  });
});
afterAll(async () => h.close());

/** The planned-request lines (`PATCH /api/…`) of a dry run or card. */
const requestLines = (effects: readonly Effect[]) =>
  textOf(effects)
    .split("\n")
    .filter((l) => /^(GET|POST|PATCH|DELETE) \/api\//.test(l));

/** The last write the array received, in the dry run's notation. */
function lastWrite(array: string): string {
  const sent = h.sims
    .get(array)
    ?.control.stats()
    .recent.filter((r) => r.method !== "GET")
    .at(-1);
  if (!sent) throw new Error("nothing sent");
  const query = sent.query ? `?${sent.query}` : "";
  return `${sent.method} ${sent.path}${query}${sent.body ? ` ${sent.body}` : ""}`;
}

/** Runs `text` with --dry-run, then for real (confirming or approving as the card asks). */
async function shownThenSent(text: string, array: string) {
  const dry = requestLines(await h.run("alice", `${text} --array ${array} --dry-run`));
  let effects = await h.run("alice", `${text} --array ${array}`);
  const card = requestLines(effects);
  const t = textOf(effects);
  if (t.includes("Confirm:")) effects = await h.click("alice", effects, "Confirm");
  else if (t.includes("Approval needed"))
    effects = await h.click("dave", effects, "Approve", text.split(" ")[2]);
  return { dry, card, sent: lastWrite(array), result: textOf(effects) };
}

describe("dry run, card and sent request are one", () => {
  test.each([
    ["fs create planned-1 1T --nfs --hard-limit", "lab-1"],
    ["fs create planned-2 1T --nfs", "old-1"],
    ["fs resize backups 50T", "lab-1"],
    ["fs resize scratch 6T", "lab-1"],
    ["fs update projects --no-nfs --smb", "lab-1"],
    ["fs update home --no-nfs", "old-1"],
    ["fs update builds --no-hard-limit --default-user-quota 10G", "lab-1"],
    ["fs destroy logs", "lab-1"],
    ["snapshot destroy home.daily.1", "lab-1"],
    ["snapshot destroy home.daily.2", "old-1"],
  ])("%s on %s", async (text, array) => {
    const { dry, card, sent } = await shownThenSent(text, array);
    expect(dry).toHaveLength(1);
    expect(sent).toBe(dry[0]);
    if (card.length > 0) expect(card).toEqual(dry);
  });

  test("eradicate: the DELETE shown to the approver is the DELETE sent", async () => {
    await h.click("alice", await h.run("alice", "fs destroy media --array lab-1"), "Confirm");
    const { dry, card, sent, result } = await shownThenSent("fs eradicate media", "lab-1");
    expect(result).toContain("Eradicated *media*");
    expect(dry).toEqual([onWire("DELETE /api/1.12/file-systems?name=media")]);
    expect(card).toEqual(dry);
    expect(sent).toBe(dry[0]);
  });
});
