/**
 * `snapshot list`: hand-written, not the catalogue's generic list, because snapshots are selected by
 * `names_or_sources` (a file system's name lists its snapshots), `--policy` filters on the policy that made them
 * (REST 1.5+), and a destroyed snapshot shows the time left before the array eradicates it.
 */

import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { formatTimestamp } from "../../src/core/presentation/format-time.js";
import { count, namePattern, objectName, sortKey } from "../../src/core/words/arg-types.js";
import { formatDuration } from "../../src/core/words/units.js";
import { and, eq, type Filter } from "../../src/flashblade/filter.js";
import { snapshotSchema } from "../../src/flashblade/schemas.js";
import { SNAPSHOT_NAMES_PARAM } from "../../src/flashblade/wire.js";
import { requirePolicy, requirePolicyApi } from "../policy/read.js";
import {
  fetchListing,
  type Listing,
  listQuery,
  MAX_LIST_ROWS as MAX_ROWS,
  mergeListings,
  rowsListing,
} from "../shared/listing.js";
import { isoTime } from "../shared/shown.js";

const SORT_FIELDS = { name: "name", created: "created", source: "source", suffix: "suffix" };

export interface SnapRow {
  array: string;
  name: string;
  source: string;
  created?: number;
  destroyed: boolean;
  timeRemaining?: number;
}

export type SnapListResult = Listing<SnapRow>;

export const snapshotList = defineCommand({
  verb: "list",
  summary: "List file system snapshots",
  examples: [
    "snapshot list",
    "snapshot list --fs home --sort created- --limit 10",
    "snapshot list --array all",
    "snapshot list --policy daily",
  ],
  role: "viewer",
  endpoints: ["GET /file-system-snapshots"],
  args: z.object({
    fs: objectName("file system name").optional().describe("only snapshots of this file system"),
    name: namePattern().optional().describe("only snapshot names matching this pattern; * matches anything"),
    sort: sortKey(SORT_FIELDS)
      .optional()
      .describe(`sort by ${Object.keys(SORT_FIELDS).join(", ")}; append - for descending`),
    limit: count({ max: MAX_ROWS })
      .optional()
      .describe(`at most this many (default: all, up to ${MAX_ROWS})`),
    destroyed: z.boolean().optional().describe("include destroyed snapshots"),
    policy: objectName("policy name").optional().describe("only snapshots this snapshot policy made"),
  }),
  async run(args, ctx): Promise<SnapListResult> {
    const base = await listQuery(args, ctx);
    if (args.policy !== undefined) await requirePolicyApi(ctx);
    const byPolicy = args.policy === undefined ? undefined : eq("policy.name", args.policy);
    const filter = byPolicy && base.filter ? and(byPolicy, base.filter as Filter) : (byPolicy ?? base.filter);
    const query = {
      ...(args.fs === undefined ? {} : { [SNAPSHOT_NAMES_PARAM]: [args.fs] }),
      ...base,
      filter,
    };
    const listing = await fetchListing(ctx, "/file-system-snapshots", {
      query,
      schema: snapshotSchema,
      limit: args.limit,
      toRow: (s): SnapRow => ({
        array: ctx.arrayName,
        name: s.name,
        source: s.source ?? s.owner?.name ?? "?",
        ...(s.created === undefined ? {} : { created: s.created }),
        destroyed: s.destroyed ?? false,
        ...(s.time_remaining === undefined ? {} : { timeRemaining: s.time_remaining }),
      }),
      countQuery: query,
    });
    // "No snapshots" for a misspelt policy would mislead: say the policy does not exist instead.
    if (listing.rows.length === 0 && args.policy !== undefined) await requirePolicy(ctx, args.policy);
    return listing;
  },
  merge: mergeListings,
  render(result, args, rctx) {
    const of =
      `${args.fs === undefined ? "" : `of ${args.fs}`}${args.policy === undefined ? "" : ` made by policy ${args.policy}`}`.trim();
    return rowsListing(
      rctx,
      result.rows.map((r) => ({
        array: r.array,
        name: r.name,
        source: r.source,
        created: r.created === undefined ? "–" : formatTimestamp(r.created, rctx.timeZone),
        state: r.destroyed
          ? `destroyed${r.timeRemaining === undefined ? "" : `, eradicated in ${formatDuration(r.timeRemaining)}`}`
          : "active",
      })),
      {
        noun: "snapshot",
        scope: of,
        total: result.total,
        title: (where) => `Snapshots${of ? ` ${of}` : ""} on ${where}`,
        columns: { name: "Snapshot", source: "File system", created: "Created", state: "State" },
        values: result.rows.map((r) => ({
          array: r.array,
          name: r.name,
          source: r.source,
          created: isoTime(r.created),
          state: r.destroyed ? "destroyed" : "active",
          time_remaining: r.timeRemaining ?? null,
        })),
      },
    );
  },
});
