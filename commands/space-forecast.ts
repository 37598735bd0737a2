/**
 * `/array space forecast`: when will it be full? A robust linear fit of the array's own space history
 * (Theil–Sen over the last 30 days by default) gives the dates of 80, 90 and 100 % with a range and the growth
 * per day; "not enough history" is an answer. Model and its limits: docs/forecast.md. Hand-written because it
 * fits a model to the space history and answers with dates and a chart, not the samples the array sends.
 */
import { z } from "zod";
import { defineCommand } from "../src/core/catalogue/define-command.js";
import {
  type CapacityForecast,
  capacityForecast,
  type LevelCrossing,
} from "../src/core/forecast/capacity.js";
import { formatDay } from "../src/core/presentation/format-time.js";
import { type Block, type Field, message, type Rich, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { objectName } from "../src/core/words/arg-types.js";
import { windowWire, wired } from "../src/core/words/arg-wire.js";
import { formatBytes, formatBytesLike, formatPercent, parseDuration } from "../src/core/words/units.js";
import { UserFacingError } from "../src/errors.js";
import { forecastChart } from "./space-forecast-chart.js";

const DAY = 86_400_000;
const WINDOW_HELP = "use a number of days from 1d to 90d, such as 7d or 30d";

export interface ForecastResult {
  forecasts: CapacityForecast[];
  /** With --fs: the file system's own fill, shown beside the array's forecast. */
  fileSystem?: { name: string; used: number; provisioned: number };
}

function days() {
  return wired(
    z.union([z.number(), z.string()]).transform((v, ctx) => {
      const ms = typeof v === "number" ? v * DAY : parseDuration(/^\d+$/.test(v.trim()) ? `${v.trim()}d` : v);
      if (ms === undefined || ms < DAY || ms > 90 * DAY) {
        ctx.addIssue({
          code: "custom",
          message: `\`${String(v)}\` is not a history window I can fit; ${WINDOW_HELP}`,
        });
        return z.NEVER;
      }
      return ms;
    }),
    {
      json: {
        anyOf: [
          { type: "integer", minimum: 1, maximum: 90, description: "days" },
          windowWire("[1-9]d|[1-8][0-9]d|90d", ["7d", "30d"]).json,
        ],
      },
    },
  );
}

const date = formatDay;
const inDays = (ms: number, now: number) => {
  const d = (ms - now) / DAY;
  return d < 1 ? "within a day" : `in ${Math.round(d)} days`;
};

/** "2027-02-05 (in 73 days; between 2027-02-01 and 2027-02-10)". */
export function describeCrossing(c: LevelCrossing, now: number): string {
  if (c.reached) return "already reached";
  if (c.at === undefined) return "not on the current trend (usage is not growing)";
  // A range whose two ends fall on the same day says nothing a range should: it is left out, never printed.
  const range =
    c.earliest !== undefined && c.latest !== undefined
      ? date(c.earliest) === date(c.latest)
        ? ""
        : `between ${date(c.earliest)} and ${date(c.latest)}`
      : c.earliest !== undefined
        ? `not before ${date(c.earliest)}; the slowest plausible growth never gets there`
        : "";
  return `${date(c.at)} (${inDays(c.at, now)}${range ? `; ${range}` : ""})`;
}

/**
 * The growth per day and its range, all three in one unit: the best figure's, or `like`'s for a column of
 * several arrays; no range when it has no width.
 */
function perDayText(f: CapacityForecast, like?: number): string {
  if (!f.perDay) return "–";
  const { best, low, high } = f.perDay;
  const unit = like ?? best;
  const sign = (v: number) => (v < 0 ? `−${formatBytesLike(-v, unit)}` : formatBytesLike(v, unit));
  const [from, to] = [sign(low), sign(high)];
  return from === to ? `${sign(best)}/day` : `${sign(best)}/day (${from} to ${to})`;
}

function oneArray(f: CapacityForecast, fsNote: Block[], timeZone: string): Block[] {
  const now = f.history[f.history.length - 1]?.[0] ?? 0;
  const windowDays = Math.round(f.windowMs / DAY);
  const used = rich`${formatBytes(f.usedNow)} of ${formatBytes(f.capacity)} (${formatPercent(f.capacity > 0 ? f.usedNow / f.capacity : 0)})`;
  if (!f.fit) {
    return [
      { type: "fields", fields: [{ label: "Used now", value: used }] },
      ...fsNote,
      {
        type: "section",
        text: rich`*Not enough history* to forecast ${f.array}: ${f.reason ?? "no samples"}. Try again later, or a longer window with \`--days 30\`.`,
      },
    ];
  }
  const fields: Field[] = [
    { label: "Used now", value: used },
    { label: "Growth", value: rich`${perDayText(f)}` },
    ...f.crossings.map((c) => ({
      label: `${Math.round(c.level * 100)} % full`,
      value: rich`${describeCrossing(c, now)}`,
    })),
  ];
  return [
    { type: "fields", fields },
    ...fsNote,
    forecastChart(f, timeZone),
    {
      type: "context",
      text: rich`Theil–Sen fit of ${f.fit.n} samples (${Math.round(f.resolution / 3_600_000)} h apart) over the last ${windowDays} days; ranges are 95 % intervals of the growth rate and the current level. A straight line: a step change (a migration, a big delete) shows as a wide range. See docs/forecast.md.`,
    },
  ];
}

export const spaceForecast = defineCommand({
  verb: "forecast",
  summary: "When the array reaches 80, 90 and 100 % full, from a robust fit of its space history",
  examples: [
    "space forecast",
    "space forecast --days 7",
    "space forecast --array all",
    "space forecast --fs home",
  ],
  role: "viewer",
  endpoints: ["GET /arrays/space"],
  args: z.object({
    days: days()
      .default(30 * DAY)
      .describe(`history to fit; ${WINDOW_HELP}`),
    fs: objectName("file system name").optional().describe("also show this file system's fill"),
  }),
  async run(args, ctx): Promise<ForecastResult> {
    const forecast = await capacityForecast(ctx.array, { windowMs: args.days, now: () => ctx.now() });
    if (args.fs === undefined) return { forecasts: [forecast] };
    const fs = await ctx.array.fileSystems.get(args.fs);
    if (!fs)
      throw new UserFacingError(
        "NOT_FOUND",
        `There is no file system named "${args.fs}" on ${ctx.arrayName}.`,
      );
    return {
      forecasts: [forecast],
      fileSystem: { name: fs.name, used: fs.space?.virtual ?? 0, provisioned: fs.provisioned ?? 0 },
    };
  },
  merge(results) {
    return { forecasts: results.flatMap((r) => r.result.forecasts) };
  },
  render(result, _args, rctx) {
    const only = result.forecasts.length === 1 ? result.forecasts[0] : undefined;
    if (only) {
      const fs = result.fileSystem;
      const fsNote: Block[] = fs
        ? [
            {
              type: "section",
              text: rich`*${fs.name}* holds ${formatBytes(fs.used)}${fs.provisioned > 0 ? ` of ${formatBytes(fs.provisioned)} (${formatPercent(fs.used / fs.provisioned)})` : " (no size limit)"}. REST 1.x arrays keep space history only for the whole array, so the dates below are the array's.`,
            },
          ]
        : [];
      const headline = `Capacity forecast for ${only.array}`;
      const full = only.crossings.find((c) => c.level === 1);
      const now = only.history[only.history.length - 1]?.[0] ?? rctx.now;
      const summary = only.fit
        ? `${headline}: 100 % ${full ? describeCrossing(full, now) : "–"}, growth ${perDayText(only)}`
        : `${headline}: not enough history (${only.reason ?? "no samples"})`;
      return message(summary, [{ type: "header", text: headline }, ...oneArray(only, fsNote, rctx.timeZone)]);
    }
    // One unit for the whole Growth column: the largest growth's.
    const like = Math.max(0, ...result.forecasts.map((f) => Math.abs(f.perDay?.best ?? 0)));
    const rows = result.forecasts.map((f) => {
      const now = f.history[f.history.length - 1]?.[0] ?? rctx.now;
      const at = (level: number) => {
        const c = f.crossings.find((x) => x.level === level);
        return f.fit && c ? describeCrossing(c, now) : "not enough history";
      };
      return {
        array: f.array,
        used: f.capacity > 0 ? formatPercent(f.usedNow / f.capacity) : "–",
        growth: perDayText(f, like),
        p80: at(0.8),
        p90: at(0.9),
        p100: at(1),
      };
    });
    const table = truncatedTable(
      [
        { key: "array", label: "Array" },
        { key: "used", label: "Used %", align: "right" },
        { key: "growth", label: "Growth" },
        { key: "p80", label: "80 %" },
        { key: "p90", label: "90 %" },
        { key: "p100", label: "100 %" },
      ],
      rows,
      { limit: rctx.tableRows, filename: "forecast.csv", title: "Capacity forecast" },
    );
    const headline = `Capacity forecast for ${result.forecasts.length} arrays`;
    const notes: Rich[] = [
      rich`Charts are drawn for one array at a time: add \`--array <name>\` to see one.`,
    ];
    return message(
      `${headline}: ${rows.map((r) => `${r.array} 100 % ${r.p100}`).join("; ")}`,
      [
        { type: "header", text: headline },
        table.block,
        ...notes.map((text) => ({ type: "context" as const, text })),
      ],
      table.attachments.length ? { attachments: table.attachments } : {},
    );
  },
});
