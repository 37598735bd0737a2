/**
 * `fs top [fs] [--since 7d]`: who filled it. Without a name, the largest file systems and buckets; with one,
 * its largest users and groups. Growth comes from the array's space history (`/arrays/space` with a time
 * window), which REST 1.x keeps for the file-system and object-store totals only: per file system, bucket or
 * user there is no history, and the answer says so rather than inventing a trend. Hand-written because it joins
 * several reads into one ranking, which no single catalogue resource describes.
 */
import { z } from "zod";
import { type CommandContext, defineCommand } from "../../src/core/catalogue/define-command.js";
import { oneUnitPerColumn } from "../../src/core/presentation/column-units.js";
import { formatTimestamp } from "../../src/core/presentation/format-time.js";
import { type Block, message, rich, type TableColumn } from "../../src/core/presentation/message.js";
import { count, duration, objectName } from "../../src/core/words/arg-types.js";
import { formatBytes, formatDuration, formatPercent } from "../../src/core/words/units.js";
import { eq } from "../../src/flashblade/filter.js";
import { arraySpaceSchema, bucketSchema, fileSystemSchema } from "../../src/flashblade/schemas.js";
import { findEndpoint } from "../../src/rest-spec/versions.js";
import { resolutionFor } from "../perf.js";
import { KINDS, readUsage, subjectOf } from "../quota/kinds.js";
import { requireLiveFileSystem, usedBytes } from "../shared/file-system-facts.js";

const DEFAULT_LIMIT = 10;
const MAX_SINCE = 365 * 86_400_000;

const COLUMNS = (inFs: boolean): TableColumn[] => [
  { key: "name", label: "Name" },
  { key: "kind", label: "Kind" },
  // Logical, before data reduction: `/array space` shows physical, and says so.
  { key: "used", label: "Used (logical)", align: "right" },
  { key: "share", label: inFs ? "Share of the file system" : "vs largest", align: "right" },
];

interface TopRow {
  kind: "file system" | "bucket" | "user" | "group";
  name: string;
  used: number;
  size?: number;
}

interface Growth {
  /** "file systems" or "object store", with the array's name in a fan-out. */
  what: string;
  now: number;
  before: number | undefined;
  /** When the oldest sample in the window is, if the history does not reach the window's start. */
  from?: number;
}

export interface FsTopResult {
  array: string;
  fs?: string;
  rows: TopRow[];
  growth: Growth[];
  since?: number;
}

async function largest(ctx: CommandContext, limit: number): Promise<TopRow[]> {
  const live = (await ctx.array.supports("1.1")) ? { filter: eq("destroyed", false) } : {};
  const fsPage = await ctx.array.get("/file-systems", {
    query: { ...live, sort: "space.virtual-", limit },
    schema: fileSystemSchema,
  });
  const rows: TopRow[] = fsPage.items.map((f) => ({
    kind: "file system",
    name: f.name,
    used: usedBytes(f),
    size: f.provisioned ?? 0,
  }));
  const since = findEndpoint("GET", "/buckets")?.since ?? "1.3";
  if (await ctx.array.supports(since)) {
    const b = await ctx.array.get("/buckets", {
      query: { filter: eq("destroyed", false), sort: "space.virtual-", limit },
      schema: bucketSchema,
    });
    rows.push(
      ...b.items.map((x) => ({ kind: "bucket" as const, name: x.name, used: x.space?.virtual ?? 0 })),
    );
  }
  return rows.sort((a, b) => b.used - a.used).slice(0, limit);
}

async function growth(ctx: CommandContext, since: number): Promise<Growth[]> {
  const end = ctx.now();
  const start = end - since;
  const resolution = resolutionFor(since);
  const out: Growth[] = [];
  for (const [type, what] of [
    ["file-system", "file systems"],
    ["object-store", "object store"],
  ] as const) {
    const page = await ctx.array
      .get("/arrays/space", {
        query: { type, start_time: start, end_time: end, resolution },
        schema: arraySpaceSchema,
      })
      .catch(() => undefined);
    const samples = (page?.items ?? []).filter((s) => s.time !== undefined);
    const first = samples[0];
    const last = samples.at(-1);
    const now = last?.space?.virtual;
    if (now === undefined) continue;
    const late = first?.time !== undefined && first.time - start > resolution;
    out.push({
      what,
      now,
      before: first?.space?.virtual,
      ...(late && first?.time !== undefined ? { from: first.time } : {}),
    });
  }
  return out;
}

export const fsTop = defineCommand({
  verb: "top",
  summary: "Who filled it: the largest file systems and buckets, or a file system's largest users and groups",
  examples: ["fs top", "fs top --since 7d", "fs top home", "fs top --array all --limit 5"],
  role: "viewer",
  endpoints: ["GET /buckets", "GET /file-systems"],
  positional: ["name"],
  args: z.object({
    name: objectName("file system name")
      .optional()
      .describe("a file system: show its largest users and groups"),
    since: duration()
      .optional()
      .refine((ms) => ms === undefined || ms <= MAX_SINCE, "the window can be at most 365d")
      .describe("growth over this window, e.g. 24h or 7d, where the array keeps history"),
    limit: count({ max: 100 }).optional().describe(`how many to show (default ${DEFAULT_LIMIT})`),
  }),
  async run(a, ctx): Promise<FsTopResult> {
    const limit = a.limit ?? DEFAULT_LIMIT;
    const base = { array: ctx.arrayName, ...(a.since === undefined ? {} : { since: a.since }) };
    if (a.name !== undefined) {
      const fs = await requireLiveFileSystem(ctx, a.name);
      const rows: TopRow[] = [
        { kind: "file system", name: fs.name, used: usedBytes(fs), size: fs.provisioned ?? 0 },
      ];
      if (await ctx.array.supports("1.6")) {
        for (const spec of [KINDS.user, KINDS.group]) {
          const { rows: top } = await readUsage(ctx, spec, { fileSystems: [fs.name], top: limit });
          rows.push(...top.map((r) => ({ kind: spec.kind, name: subjectOf(r), used: r.usage })));
        }
      }
      return { ...base, fs: fs.name, rows, growth: [] };
    }
    const [rows, g] = await Promise.all([
      largest(ctx, limit),
      a.since ? growth(ctx, a.since) : Promise.resolve([]),
    ]);
    return { ...base, rows, growth: g };
  },
  merge: (results) => ({
    array: results.map((r) => r.array).join(", "),
    rows: results
      .flatMap((r) => r.result.rows.map((x) => ({ ...x, name: `${r.array}: ${x.name}` })))
      .sort((x, y) => y.used - x.used),
    growth: results.flatMap((r) => r.result.growth.map((g) => ({ ...g, what: `${r.array} ${g.what}` }))),
    ...(results[0]?.result.since === undefined ? {} : { since: results[0].result.since }),
  }),
  render(r, a, rctx) {
    const where = rctx.arrays.length > 1 ? `${rctx.arrays.length} arrays` : `array ${rctx.arrays[0] ?? "?"}`;
    const headline = r.fs ? `Who fills ${r.fs} on ${where}` : `Largest file systems and buckets on ${where}`;
    const top = r.rows.reduce((m, x) => Math.max(m, x.used), 0);
    const blocks: Block[] = [
      { type: "header", text: headline },
      {
        type: "table",
        columns: COLUMNS(!!r.fs),
        // One unit for the column (column-units.ts): the largest's, so 900 GiB never sits above 1.2 TiB unnoticed.
        rows: oneUnitPerColumn(
          COLUMNS(!!r.fs),
          (r.fs ? r.rows : r.rows.slice(0, a.limit ?? DEFAULT_LIMIT)).map((x) => ({
            name: x.name,
            kind: x.kind,
            used: formatBytes(x.used),
            share: r.fs
              ? x.kind === "file system"
                ? "100%"
                : formatPercent(x.used / (r.rows[0]?.used || 1))
              : formatPercent(x.used / (top || 1)),
          })),
        ),
      },
    ];
    if (r.since !== undefined) {
      const window = formatDuration(r.since);
      for (const g of r.growth) {
        if (g.before === undefined) continue;
        const delta = g.now - g.before;
        const from =
          g.from === undefined
            ? `${window} ago`
            : `${formatTimestamp(g.from, rctx.timeZone)} (the oldest sample)`;
        blocks.push({
          type: "section",
          text: rich`*${g.what}* in total: ${formatBytes(g.now)} now, ${formatBytes(g.before)} ${from}: ${delta >= 0 ? "+" : "−"}${formatBytes(Math.abs(delta))}${g.before > 0 ? ` (${formatPercent(Math.abs(delta) / g.before)})` : ""}.`,
        });
      }
      if (r.growth.length === 0 && !r.fs && rctx.arrays.length === 1) {
        blocks.push({
          type: "section",
          text: rich`The array returned no space history for the last ${window}.`,
        });
      }
      blocks.push({
        type: "context",
        text: rich`The array keeps space history for its file-system and object-store totals only; there is no history per file system, bucket, user or group (REST 1.x), so those show today's usage, not growth.`,
      });
    }
    const lead = r.rows[0];
    return message(lead ? `${headline}: ${lead.name} ${formatBytes(lead.used)}` : headline, blocks);
  },
});
