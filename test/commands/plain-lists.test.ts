/**
 * The plain lists (accounts, users, virtual hosts, access keys, lifecycle rules, replica links, connections,
 * remote credentials, S3 targets, snapshot policies, bucket activity, snapshot counts, replication throughput) answer alike: a sentence when no array has any, else a headline
 * over a table that gains an Array column first when several arrays answered.
 */
import { describe, expect, test } from "vitest";
import type { Message } from "../../src/core/presentation/message.js";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf } from "../core/harness.js";

const h = fileHarness({
  arrays: [{ name: "lab-1" }, { name: "lab-2" }, { name: "bare-1", scenario: "empty" }],
});

const LISTS: readonly { line: string; empty?: string; column: string }[] = [
  { line: "object-account list", empty: "No object store accounts on array bare-1.", column: "Account" },
  { line: "object-user list", empty: "No object store users on array bare-1.", column: "User" },
  {
    line: "virtual-host list",
    empty: "No virtual hosts on array bare-1: clients address buckets by path.",
    column: "Host name",
  },
  { line: "access-key list", empty: "No access keys on array bare-1.", column: "User" },
  { line: "lifecycle-rule list", empty: "No lifecycle rules on array bare-1.", column: "Bucket" },
  { line: "replica-link fs list", empty: "No file system replica links on array bare-1.", column: "Link" },
  { line: "replica-link bucket list", empty: "No bucket replica links on array bare-1.", column: "Link" },
  { line: "array-connection list", empty: "No array connections on array bare-1.", column: "Remote" },
  { line: "remote-credentials list", empty: "No remote credentials on array bare-1.", column: "Name" },
  { line: "target list", empty: "No S3 targets on array bare-1.", column: "Target" },
  {
    line: "policy list",
    empty:
      'No snapshot policies on array bare-1. Create one with /array policy create <name> --rules "every 1d at 02:00, keep 7d".',
    column: "Policy",
  },
  { line: "bucket perf", empty: "No bucket activity on array bare-1.", column: "Bucket" },
  { line: "snapshot count", empty: "No snapshots on array bare-1.", column: "File system" },
  // Every array has a row per kind of replication, so this list is never empty.
  { line: "replication perf", column: "Where" },
];

async function answer(line: string): Promise<Message> {
  const m = messagesOf(await h.run("carol", line))[0];
  if (!m) throw new Error(`no answer to ${line}`);
  return m;
}
const tableOf = (m: Message) => {
  const t = m.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${m.text}`);
  return t;
};

describe.each(LISTS.filter((l) => l.empty !== undefined))(
  "$line on an array with none",
  ({ line, empty }) => {
    test("one sentence and no table", async () => {
      const m = await answer(`${line} --array bare-1`);
      expect(m.text).toBe(empty);
      expect(m.blocks.some((b) => b.type === "table")).toBe(false);
    });
  },
);

describe.each(LISTS)("$line", ({ line, column }) => {
  test("one array: a headline naming it over the table, no Array column", async () => {
    const m = await answer(`${line} --array lab-1`);
    expect(m.text).toMatch(/ on array lab-1/);
    expect(tableOf(m).columns[0]?.label).toBe(column);
  });

  test("several arrays: the headline counts them and the Array column comes first", async () => {
    const m = await answer(`${line} --array lab-1,lab-2`);
    expect(m.text).toMatch(/ on 2 arrays/);
    const t = tableOf(m);
    expect(t.columns.map((c) => c.label).slice(0, 2)).toEqual(["Array", column]);
    expect(new Set(t.rows.map((r) => r.array))).toEqual(new Set(["lab-1", "lab-2"]));
  });
});

// A list narrowed by its argument says so in both sentences, and keeps its CSV name and right-aligned numbers.
const NARROWED: readonly { line: string; headline: RegExp; empty: string; csv: string; right: string[] }[] = [
  {
    line: "replica-link bucket list veeam-repo",
    headline: /^1 bucket replica link for veeam-repo on array lab-1$/,
    empty: "No bucket replica links for veeam-repo on array bare-1.",
    csv: "bucket-replica-links.csv",
    right: ["Lag"],
  },
  {
    line: "lifecycle-rule list analytics-raw",
    headline: /^2 lifecycle rules for analytics-raw on array lab-1$/,
    empty: "No lifecycle rules for analytics-raw on array bare-1.",
    csv: "lifecycle-rules.csv",
    right: [],
  },
  {
    line: "snapshot count --array lab-1",
    headline: /^\d+ snapshots on array lab-1, per file system$/,
    empty: "No snapshots on array bare-1.",
    csv: "snapshot-counts.csv",
    right: ["Snapshots", "By policy", "Manual", "Destroyed"],
  },
];

describe.each(NARROWED)("$line", ({ line, headline, empty, csv, right }) => {
  test("names what narrowed it, keeps its CSV name and its right-aligned columns", async () => {
    const m = await answer(line.includes("--array") ? line : `${line} --array lab-1`);
    expect(m.text).toMatch(headline);
    const t = tableOf(m);
    expect(t.columns.filter((c) => c.align === "right").map((c) => c.label)).toEqual(right);
    expect(m.attachments?.map((a) => a.filename) ?? [csv]).toEqual([csv]);
    expect((await answer(`${line.replace(" --array lab-1", "")} --array bare-1`)).text).toBe(empty);
  });
});
