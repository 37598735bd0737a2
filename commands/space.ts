/**
 * `/array space`: how full each array is, what holds the space, and how much is only waiting for eradication.
 * Admins' most common capacity question is "how much headroom is left and what can I reclaim now".
 * Hand-written because it computes headroom and what waits for eradication from the array's space and its
 * file systems, two endpoints in one answer.
 */
import { z } from "zod";
import { defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import { message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { countOf, formatBytes, formatPercent } from "../src/core/words/units.js";
import type { ArraySpace } from "../src/flashblade/types.js";
import { columnsOf } from "./shared/listing.js";
import { spaceForecast } from "./space-forecast.js";
import { spaceTrash } from "./space-trash.js";

/** Arrays fuller than this get a warning line: FlashBlade performance and rebuild headroom suffer past it. */
const FULL_WARNING = 0.8;
/** Arrays named in the notes under the table; the rest are counted. */
const NOTES_SHOWN = 5;
/**
 * The space by kind (file systems, object store) is two more calls per array. Over a fleet larger than the
 * sockets the bot may open allow at once (`array_pool.max_sockets`, 256 by default, over four calls each) they
 * queue behind one another: at 1,000 arrays they made `space --array all` take 2.3-2.6 s instead of 1.5 s. A
 * fleet's answer shows each array's totals; one array's (or a few) shows the split too.
 */
export const SPLIT_ARRAYS_MAX = 64;

export interface SpaceRow {
  array: string;
  capacity: number;
  used: number;
  reduction?: number;
  snapshots: number;
  fileSystems?: number;
  objectStore?: number;
  /** Physical space held by destroyed file systems, freed on eradication. */
  destroyed: number;
  destroyedCount: number;
}

export interface SpaceResult {
  rows: SpaceRow[];
  /** False when the space by kind was not asked for (a fan-out over more than SPLIT_ARRAYS_MAX arrays). */
  split: boolean;
}

function physical(s: ArraySpace | undefined): number | undefined {
  return s?.space?.total_physical;
}

const spaceShow = defineCommand({
  verb: "show",
  summary: "Capacity, usage, data reduction, snapshots and space held by destroyed file systems",
  examples: ["space show", "space show --array all", "space show --array tag:dr"],
  role: "viewer",
  endpoints: ["GET /arrays/space", "GET /file-systems"],
  args: z.object({}),
  async run(_args, ctx): Promise<SpaceResult> {
    // The per-kind split and the destroyed scan are extras: an array that refuses the split still answers.
    const split = ctx.fanOut <= SPLIT_ARRAYS_MAX;
    const extra = async (type: "file-system" | "object-store") =>
      !split
        ? undefined
        : ctx.array.arrays.space(type).catch((err: unknown) => {
            ctx.logger.warn(
              { err, array: ctx.arrayName, type },
              "space by type failed; answering without it",
            );
            return undefined;
          });
    const held = async () => {
      let bytes = 0;
      let count = 0;
      for await (const fs of ctx.array.fileSystems.destroyed()) {
        bytes += fs.space?.total_physical ?? 0;
        count++;
      }
      return { bytes, count };
    };
    // Asked at once (one round trip, not three): across a fleet larger than the socket bound the four calls
    // queue on the array's one socket instead of reconnecting between them.
    const [array, fsSpace, objSpace, { bytes: destroyed, count: destroyedCount }] = await Promise.all([
      ctx.array.arrays.space("array"),
      extra("file-system"),
      extra("object-store"),
      held(),
    ]);
    const row: SpaceRow = {
      array: ctx.arrayName,
      capacity: array.capacity ?? 0,
      used: physical(array) ?? 0,
      snapshots: array.space?.snapshots ?? 0,
      destroyed,
      destroyedCount,
      ...(array.space?.data_reduction === undefined ? {} : { reduction: array.space.data_reduction }),
      ...(physical(fsSpace) === undefined ? {} : { fileSystems: physical(fsSpace) }),
      ...(physical(objSpace) === undefined ? {} : { objectStore: physical(objSpace) }),
    };
    return { rows: [row], split };
  },
  merge(results) {
    return { rows: results.flatMap((r) => r.result.rows), split: results.every((r) => r.result.split) };
  },
  render(result, _args, rctx) {
    const where = rctx.arrays.length > 1 ? `${rctx.arrays.length} arrays` : `array ${rctx.arrays[0] ?? "?"}`;
    const ratio = (r: SpaceRow) => (r.capacity > 0 ? r.used / r.capacity : 0);
    const rows = result.rows.map((r) => ({
      array: r.array,
      capacity: formatBytes(r.capacity),
      used: formatBytes(r.used),
      pct: r.capacity > 0 ? formatPercent(ratio(r)) : "–",
      free: formatBytes(Math.max(0, r.capacity - r.used)),
      reduction: r.reduction === undefined ? "–" : `${r.reduction.toFixed(1)}:1`,
      snapshots: formatBytes(r.snapshots),
      fs: r.fileSystems === undefined ? "–" : formatBytes(r.fileSystems),
      object: r.objectStore === undefined ? "–" : formatBytes(r.objectStore),
      destroyed: r.destroyedCount ? `${formatBytes(r.destroyed)} (${r.destroyedCount})` : "–",
    }));
    // Without the split its two columns would be a dash on every row: left out, and a note says why.
    const byKind: Record<string, string> = result.split ? { fs: "File systems", object: "Object store" } : {};
    const table = truncatedTable(
      columnsOf(
        {
          array: "Array",
          capacity: "Capacity",
          used: "Used",
          pct: "Used %",
          free: "Free",
          reduction: "Reduction",
          snapshots: "Snapshots",
          ...byKind,
          destroyed: "Held by destroyed",
        },
        "numbers",
      ),
      rows,
      {
        limit: rctx.tableRows,
        filename: "space.csv",
        title: `Space on ${where}`,
        // Bytes and ratios beside the text (structured results).
        values: result.rows.map((r) => ({
          array: r.array,
          capacity: r.capacity,
          used: r.used,
          pct: r.capacity > 0 ? ratio(r) : null,
          free: Math.max(0, r.capacity - r.used),
          reduction: r.reduction ?? null,
          snapshots: r.snapshots,
          ...(result.split ? { fs: r.fileSystems ?? null, object: r.objectStore ?? null } : {}),
          destroyed: r.destroyed,
          destroyed_count: r.destroyedCount,
        })),
      },
    );
    // Over a fleet, the fullest few are named and the rest counted: a line per array would bury the table.
    const fullAll = result.rows.filter((r) => ratio(r) >= FULL_WARNING).sort((a, b) => ratio(b) - ratio(a));
    const reclaimAll = result.rows
      .filter((r) => r.destroyedCount > 0)
      .sort((a, b) => b.destroyed - a.destroyed);
    const full = fullAll.slice(0, NOTES_SHOWN);
    const reclaimable = reclaimAll.slice(0, NOTES_SHOWN);
    const more = (n: number, what: string) =>
      n > 0
        ? [
            {
              type: "context" as const,
              text: rich`…and ${countOf(n, "more array")} ${what} (the CSV has every array).`,
            },
          ]
        : [];
    const notes = [
      ...full.map((r) => ({
        type: "section" as const,
        text: rich`⚠ *${r.array}* is ${formatPercent(ratio(r))} full. Largest consumers: \`/array fs list --sort used- --limit 10 --array ${r.array}\``,
      })),
      ...reclaimable.map((r) => ({
        type: "context" as const,
        text: rich`${r.array}: ${formatBytes(r.destroyed)} is held by ${countOf(r.destroyedCount, "destroyed file system")} until eradicated (\`/array space trash --array ${r.array}\` to recover or eradicate).`,
      })),
      ...more(fullAll.length - full.length, `${formatPercent(FULL_WARNING)} full or more`),
      ...more(reclaimAll.length - reclaimable.length, "holding space in destroyed file systems"),
      ...(result.split
        ? []
        : [
            {
              type: "context" as const,
              text: rich`Space by kind (file systems, object store) is read for up to ${String(SPLIT_ARRAYS_MAX)} arrays at a time: \`/array space --array &lt;name&gt;\` shows it for one.`,
            },
          ]),
      // fs top and fs list count what clients wrote; this table what the array stores: say which is which.
      {
        type: "context" as const,
        text: rich`Physical space: what the array stores, after data reduction, snapshots included. \`fs top\` and \`fs list\` show logical sizes (what clients wrote), so their file systems add up to more.`,
      },
    ];
    const headline = `Space on ${where}`;
    const listed = result.rows.slice(0, NOTES_SHOWN).map((r) => `${r.array} ${formatPercent(ratio(r))} full`);
    const rest = result.rows.length - listed.length;
    const summary = listed.join(", ") + (rest > 0 ? ` and ${countOf(rest, "more array")}` : "");
    return message(
      `${headline}: ${summary}`,
      [{ type: "header", text: headline }, table.block, ...notes],
      table.attachments.length ? { attachments: table.attachments } : {},
    );
  },
});

export const spaceResource = defineResource({
  name: "space",
  area: "Insight",
  summary: "Array capacity and what holds it",
  defaultVerb: "show",
  commands: [spaceShow, spaceForecast, spaceTrash],
});
