/**
 * `snapshot count`: snapshots per file system, split into those a policy made and manual ones, with the oldest
 * manual snapshot, so snapshot sprawl is visible (per-file-system and array-wide snapshot limits are alerts
 * 1103/1104 on real arrays). Hand-written because it is a summary computed over every snapshot, not one resource's list.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { countOf, formatCount } from "../../src/core/words/units.js";
import { snapshotSchema } from "../../src/flashblade/schemas.js";
import { SNAPSHOT_NAMES_PARAM } from "../../src/flashblade/wire.js";
import { rowsListing } from "../shared/listing.js";

interface CountRow {
  array: string;
  fs: string;
  live: number;
  byPolicy: number;
  policies: string[];
  manual: number;
  oldestManual?: number;
  destroyed: number;
}

export const snapshotCount = defineCommand({
  verb: "count",
  summary: "Snapshots per file system: how many, made by which policies, manual ones and the oldest",
  examples: ["snapshot count", "snapshot count --fs home", "snapshot count --array all"],
  role: "viewer",
  endpoints: ["GET /file-system-snapshots"],
  args: z.object({
    fs: objectName("file system name").optional().describe("only this file system"),
  }),
  async run(a, ctx): Promise<{ rows: CountRow[] }> {
    const byFs = new Map<string, CountRow>();
    const query = a.fs === undefined ? {} : { [SNAPSHOT_NAMES_PARAM]: [a.fs] };
    const destroyedKnown = await ctx.array.supports("1.1");
    for await (const s of ctx.array.iterate("/file-system-snapshots", { query, schema: snapshotSchema })) {
      const fs = s.source ?? s.owner?.name ?? "?";
      let row = byFs.get(fs);
      if (!row) {
        row = { array: ctx.arrayName, fs, live: 0, byPolicy: 0, policies: [], manual: 0, destroyed: 0 };
        byFs.set(fs, row);
      }
      if (destroyedKnown && s.destroyed) {
        row.destroyed++;
        continue;
      }
      row.live++;
      const policy = s.policy?.name;
      if (policy) {
        row.byPolicy++;
        if (!row.policies.includes(policy)) row.policies.push(policy);
      } else {
        row.manual++;
        if (s.created !== undefined && (row.oldestManual === undefined || s.created < row.oldestManual))
          row.oldestManual = s.created;
      }
    }
    return { rows: [...byFs.values()].sort((x, y) => y.live - x.live || x.fs.localeCompare(y.fs)) };
  },
  merge: (results) => ({ rows: results.flatMap((r) => r.result.rows) }),
  render({ rows }, a, rctx) {
    const of = a.fs === undefined ? "" : ` of ${a.fs}`;
    const live = rows.reduce((n, r) => n + r.live, 0);
    return rowsListing(
      rctx,
      rows.map((r) => ({
        array: r.array,
        fs: r.fs,
        live: formatCount(r.live),
        policy: r.byPolicy ? `${formatCount(r.byPolicy)} (${r.policies.join(", ")})` : "0",
        manual: formatCount(r.manual),
        oldest: r.oldestManual === undefined ? "–" : formatWhen(r.oldestManual, rctx.now, rctx.timeZone),
        destroyed: formatCount(r.destroyed),
      })),
      {
        empty: (where) => `No snapshots${of} on ${where}.`,
        headline: (where) => `${countOf(live, "snapshot")}${of} on ${where}, per file system`,
        columns: {
          fs: "File system",
          live: "Snapshots",
          policy: "By policy",
          manual: "Manual",
          oldest: "Oldest manual",
          destroyed: "Destroyed",
        },
        right: ["live", "policy", "manual", "destroyed"],
        filename: "snapshot-counts.csv",
      },
    );
  },
});
