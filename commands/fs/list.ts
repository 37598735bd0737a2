/**
 * `fs list`: hand-written, not the catalogue's generic list, because its columns are computed (used against
 * provisioned, data reduction, the protocols served), `--sort` takes people's words for nested fields, a list
 * longer than a message continues as a CSV from `--start`, and with `--destroyed` it names the chat people
 * behind each destroy made through the bot (shared/destroyed-by.ts).
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { formatTimestamp } from "../../src/core/presentation/format-time.js";
import type { RawValue } from "../../src/core/presentation/message.js";
import { count, namePattern, sortKey } from "../../src/core/words/arg-types.js";
import { formatBytes, formatPercent } from "../../src/core/words/units.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { FileSystem } from "../../src/flashblade/types.js";
import { destroyedThroughBot } from "../shared/destroyed-by.js";
import { protocolsOf, sizeText, usedBytes } from "../shared/file-system-facts.js";
import {
  fetchListing,
  type Listing,
  listQuery,
  MAX_LIST_ROWS as MAX_ROWS,
  mergeListings,
  rowsListing,
} from "../shared/listing.js";

/** What people type after --sort, mapped to the array's field names. */
const SORT_FIELDS = {
  name: "name",
  size: "provisioned",
  provisioned: "provisioned",
  used: "space.virtual",
  created: "created",
  reduction: "space.data_reduction",
};

export interface FsRow {
  array: string;
  name: string;
  provisioned: number;
  used: number;
  reduction?: number;
  protocols: string[];
  destroyed: boolean;
  created?: number;
  /** For a file system destroyed through the bot: who asked (and approved), from the bot's records. */
  destroyedBy?: string;
}

export type FsListResult = Listing<FsRow>;

/** The --sort word people typed, from the array field it maps to. */
function sortWord(sort: { field: string; descending: boolean }): string {
  const word = Object.entries(SORT_FIELDS).find(([, f]) => f === sort.field)?.[0] ?? sort.field;
  return `${word}${sort.descending ? "-" : ""}`;
}

const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "size", label: "Size", align: "right" as const },
  { key: "used", label: "Used", align: "right" as const },
  { key: "pct", label: "Used %", align: "right" as const },
  { key: "reduction", label: "Reduction", align: "right" as const },
  { key: "protocols", label: "Protocols" },
  { key: "created", label: "Created" },
];

/** A row as the table and the CSV show it (the same cells whether rendered or streamed to a file). */
function cells(r: FsRow, timeZone: string): Record<string, string> {
  return {
    array: r.array,
    name: r.destroyed ? `${r.name} (destroyed)` : r.name,
    size: sizeText(r.provisioned),
    used: formatBytes(r.used),
    pct: r.provisioned > 0 ? formatPercent(r.used / r.provisioned) : "–",
    reduction: r.reduction === undefined ? "–" : `${r.reduction.toFixed(1)}:1`,
    protocols: r.protocols.join(", ") || "none",
    created: r.created === undefined ? "–" : formatTimestamp(r.created, timeZone),
    destroyedBy: r.destroyedBy ?? "–",
  };
}

/** A row's raw values under the same keys: sizes in bytes, the used share as a ratio, the time ISO 8601. */
function values(r: FsRow): Record<string, RawValue> {
  return {
    array: r.array,
    name: r.name,
    size: r.provisioned,
    used: r.used,
    pct: r.provisioned > 0 ? r.used / r.provisioned : null,
    reduction: r.reduction ?? null,
    protocols: r.protocols,
    created: r.created === undefined ? null : new Date(r.created).toISOString(),
    destroyed: r.destroyed,
    destroyedBy: r.destroyedBy ?? null,
  };
}

/** With --destroyed, a column names the chat people behind destroys that went through the bot. */
const DESTROYED_BY = { key: "destroyedBy", label: "Destroyed by" };

function toRow(array: string, fs: FileSystem): FsRow {
  return {
    array,
    name: fs.name,
    provisioned: fs.provisioned ?? 0,
    used: usedBytes(fs),
    ...(fs.space?.data_reduction === undefined ? {} : { reduction: fs.space.data_reduction }),
    protocols: protocolsOf(fs),
    destroyed: fs.destroyed ?? false,
    ...(fs.created === undefined ? {} : { created: fs.created }),
  };
}

export const fsList = defineCommand({
  verb: "list",
  summary: "List file systems with size, usage and protocols",
  examples: ["fs list", "fs list --name 'prod*' --sort used- --limit 20", "fs list --array all"],
  role: "viewer",
  endpoints: ["GET /file-systems"],
  args: z.object({
    name: namePattern().optional().describe("only names matching this pattern; * matches anything ('prod*')"),
    sort: sortKey(SORT_FIELDS)
      .optional()
      .describe(`sort by ${Object.keys(SORT_FIELDS).join(", ")}; append - for descending (used-)`),
    limit: count({ max: MAX_ROWS })
      .optional()
      .describe(`at most this many (default: all, up to ${MAX_ROWS})`),
    destroyed: z.boolean().optional().describe("include destroyed file systems"),
    start: count({ min: 0, max: 100_000_000 })
      .optional()
      .describe("skip this many first (continues a list longer than one CSV)"),
  }),
  async run(args, ctx): Promise<FsListResult> {
    const query = await listQuery(args, ctx);
    const listing = await fetchListing(ctx, "/file-systems", {
      query: args.start ? { ...query, start: args.start } : query,
      schema: fileSystemSchema,
      limit: args.limit,
      toRow: (fs) => toRow(ctx.arrayName, fs),
      countQuery: { filter: query.filter },
      spool: { columns: COLUMNS, cells: (r) => cells(r, ctx.timeZone), filename: "file-systems.csv" },
    });
    const gone = listing.rows.filter((r) => r.destroyed);
    if (gone.length === 0) return listing;
    const chat = await destroyedThroughBot(
      ctx,
      "fs",
      gone.map((r) => r.name),
    );
    for (const r of gone) {
      const who = chat.get(r.name)?.who;
      if (who) r.destroyedBy = `${who} (via the bot)`;
    }
    return listing;
  },
  merge: mergeListings,
  render(result, args, rctx) {
    const next = args.start ?? 0;
    return rowsListing(
      rctx,
      result.rows.map((r) => cells(r, rctx.timeZone)),
      {
        noun: "file system",
        empty: (where) =>
          `No file systems${args.name === undefined ? "" : ` matching ${args.name}`} on ${where}.`,
        total: result.total,
        values: result.rows.map(values),
        title: (where) => `File systems on ${where}`,
        columns: [...COLUMNS, ...(args.destroyed ? [DESTROYED_BY] : [])],
        offset: next,
        spool: result.spool,
        // Only a single array has one order to continue in.
        continueWith: (csvRows) =>
          rctx.arrays.length > 1
            ? undefined
            : [
                "/array fs list",
                ...(args.name === undefined ? [] : [`--name '${args.name}'`]),
                ...(args.sort ? [`--sort ${sortWord(args.sort)}`] : []),
                ...(args.destroyed ? ["--destroyed"] : []),
                `--array ${rctx.arrays[0] ?? ""}`,
                `--start ${next + csvRows}`,
              ].join(" "),
      },
    );
  },
});
