/**
 * A catalogue entry's own list words (spec.ts `ListWords`, `moreExamples`), through the generic `list` of the
 * entry that uses them: S3 targets, whose list once was hand-written and reads as it did.
 */
import { describe, expect, test } from "vitest";
import { CATALOGUE } from "../../commands/catalogue/index.js";
import type { Message } from "../../src/core/presentation/message.js";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf, textOf } from "../core/harness.js";

const h = fileHarness({
  arrays: [{ name: "lab-1" }, { name: "old-1", versions: "1.0-1.8" }, { name: "bare-1", scenario: "empty" }],
});
const PATH = "/targets";

async function answer(line: string): Promise<Message> {
  const m = messagesOf(await h.run("carol", line))[0];
  if (!m) throw new Error(`no answer to ${line}`);
  return m;
}
function tableOf(m: Message) {
  const t = m.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${m.text}`);
  return t;
}

describe("a list in its resource's own words (target list)", () => {
  test("the entry declares its list words (so the checks below are about them)", () => {
    expect(CATALOGUE.find((s) => s.path === PATH)?.listing).toBeDefined();
  });

  test("noun and labels: the headline counts S3 targets under a Target heading; show keeps Name", async () => {
    const m = await answer("target list --array lab-1");
    expect(m.text).toBe("2 S3 targets on array lab-1");
    expect(tableOf(m).columns.map((c) => c.label)).toEqual(["Target", "Address", "Status"]);
    expect(textOf(await h.run("carol", "target show aws-archive --array lab-1"))).toContain("Name");
  });

  test("units {}: statuses as the array says them, with no health callout; show keeps its marks", async () => {
    const m = await answer("target list --array lab-1");
    expect(tableOf(m).rows.find((r) => r["name"] === "aws-archive")?.["status"]).toBe("connected");
    expect(m.blocks.some((b) => b.type === "context")).toBe(false);
    expect(textOf(await h.run("carol", "target show aws-archive --array lab-1"))).toContain("✓ connected");
  });

  test("detail: a status's details follow it in parentheses where it has them", async () => {
    const rows = tableOf(await answer("target list --array lab-1")).rows;
    expect(rows.find((r) => r["name"] === "lab-minio")?.["status"]).toBe("connecting (Connection timed out)");
  });

  test("arrayKey: over several arrays each row's array is under the list's own key", async () => {
    const t = tableOf(await answer("target list --array lab-1,bare-1"));
    expect(t.columns[0]).toEqual({ key: "array", label: "Array" });
    expect(new Set(t.rows.map((r) => r["array"]))).toEqual(new Set(["lab-1"]));
  });

  test("empty: one sentence in the resource's words, with where filled in", async () => {
    expect((await answer("target list --array bare-1")).text).toBe("No S3 targets on array bare-1.");
  });

  test("options []: the list offers none of the endpoint's --limit/--sort/--name", async () => {
    expect(textOf(await h.run("carol", "target list --name aws* --array lab-1"))).toContain(
      "Unknown option --name for `target list`.",
    );
    const help = textOf(await h.run("carol", "target list --help"));
    expect(help).toContain("`/array target list [--array &lt;name&gt;] [--public]`");
  });

  test("moreExamples: the verb's help lists them after the first", async () => {
    const help = textOf(await h.run("carol", "target list --help"));
    expect(help).toContain("/array target list\n");
    expect(help).toContain("/array target list --array all");
  });

  test("needs: an older array is refused naming what needs the version", async () => {
    expect((await answer("target list --array old-1")).text).toBe(
      "The replication API needs REST 1.9, old-1 runs 1.8. Nothing was sent.",
    );
  });

  test("filename: a long list's CSV is the resource's file", async () => {
    const items = h.sim("lab-1").state.generic.get(PATH)?.items;
    const first = items?.values().next().value;
    if (!items || !first) throw new Error("no S3 targets on lab-1");
    for (let i = 0; i < 60; i++) items.set(`t${i}`, { ...first, name: `t${i}` });
    expect((await answer("target list --array lab-1")).attachments?.map((a) => a.filename)).toEqual([
      "targets.csv",
    ]);
  });
});
