/** The generic read verbs: `list` (table, CSV when long, fan-out with an Array column), `show`, and GET actions. */
import { z } from "zod";
import type {
  CommandContext,
  CommandDefinition,
  RenderContext,
} from "../../../src/core/catalogue/define-command.js";
import {
  type Block,
  type Message,
  message,
  type RawValue,
  rich,
  type ShownObject,
} from "../../../src/core/presentation/message.js";
import { truncatedTable } from "../../../src/core/presentation/table.js";
import { count, duration, namePattern } from "../../../src/core/words/arg-types.js";
import { countOf } from "../../../src/core/words/units.js";
import { errorCode, UserFacingError } from "../../../src/errors.js";
import { and, contains, eq, type Filter, ge, like } from "../../../src/flashblade/filter.js";
import type { DownloadedFile, Query } from "../../../src/flashblade/types.js";
import { notFoundError } from "../../shared/found.js";
import type { Unit } from "../spec.js";
import { callouts, countNoun, nameOf } from "./callouts.js";
import {
  type Args,
  argsSchema,
  fill,
  headOf,
  requireListVersion,
  requireVersion,
  selectorKey,
  selectorQuery,
  targetOf,
} from "./common.js";
import type { VerbPlan } from "./derive.js";
import { withLazyArgs } from "./lazy-args.js";
import {
  cellsOf,
  columnsOf,
  fieldsOf,
  formatValue,
  type Item,
  labelOf,
  rawValueOf,
  valueAt,
} from "./values.js";

/** Rows fetched at most; the message shows the first 50 and the CSV attachment holds them all. */
export const MAX_ROWS = 10_000;

export interface ListResult {
  items: Item[];
  /** True when MAX_ROWS (or --limit) stopped the listing. */
  capped: boolean;
  /** Files the arrays answered instead of pages (`/logs`), one per array; `items` name them. */
  files?: DownloadedFile[];
}

const SORT = /^[a-z][a-z0-9_.]*-?$/;

function listExtras(p: VerbPlan): Record<string, z.ZodType> {
  const params = p.endpoint.params;
  const extra: Record<string, z.ZodType> = {};
  const own = p.spec.listing?.options;
  const offers = (o: "limit" | "sort" | "name") => o in params && (own === undefined || own.includes(o));
  if (offers("limit"))
    extra["limit"] = count({ min: 1, max: MAX_ROWS }).optional().describe("at most this many");
  if (offers("sort"))
    extra["sort"] = z
      .string()
      .regex(SORT, "a field name, with - appended for descending (e.g. name-)")
      .optional()
      .describe("a field; append - for descending");
  for (const f of p.spec.filters ?? [])
    if (f.kind === "param-since" && f.field in params)
      extra[f.option] = duration().optional().describe(f.help);
  if ("filter" in params) {
    if (
      p.spec.columns.includes("name") &&
      !(p.spec.filters ?? []).some((f) => f.option === "name") &&
      (own === undefined || own.includes("name"))
    )
      extra["name"] = namePattern().optional().describe("a name pattern, * matches anything");
    for (const f of p.spec.filters ?? [])
      if (f.kind !== "param-since")
        extra[f.option] = (f.kind === "since" ? duration() : namePattern()).optional().describe(f.help);
  }
  return extra;
}

function filterOf(p: VerbPlan, args: Args, now: number): string | undefined {
  const parts: Filter[] = [];
  if (typeof args["name"] === "string" && !(p.spec.filters ?? []).some((f) => f.option === "name"))
    parts.push(like("name", args["name"]));
  for (const f of p.spec.filters ?? []) {
    const v = args[f.option];
    if (v === undefined || f.kind === "param-since") continue;
    if (f.kind === "since") parts.push(ge(f.field, now - (v as number)));
    else if (f.kind === "eq") parts.push(eq(f.field, v as string));
    else parts.push(String(v).includes("*") ? like(f.field, String(v)) : contains(f.field, String(v)));
  }
  return parts.length ? and(...parts) : undefined;
}

/** Every item of a GET (paged where the endpoint pages), up to `cap`. */
export async function fetchAll(
  ctx: CommandContext,
  p: VerbPlan,
  query: Query,
  cap: number,
): Promise<ListResult> {
  const items: Item[] = [];
  if ("limit" in p.endpoint.params) {
    for await (const item of ctx.array.iterate<Item>(p.path, { query, pageSize: Math.min(cap, 1000) })) {
      if (items.length >= cap) return { items, capped: true };
      items.push(item);
    }
    return { items, capped: false };
  }
  const page = await ctx.array.get<Item>(p.path, { query });
  const out: ListResult = { items: page.items.slice(0, cap), capped: page.items.length > cap };
  // Only where the catalogue offers the file: a file it does not (a keytab's keys) goes no further than here.
  if (page.file && (p.file ?? p.spec.file)) out.files = [page.file];
  return out;
}

/**
 * Each item marked with the array it came from (the Array column of a fan-out). The items are this call's own,
 * parsed from its responses and held by nothing else, so they are marked in place: copying every row to add one
 * field was a fair part of a list's own cost (issue 27).
 */
function markArray(res: ListResult, array: string): ListResult {
  for (const i of res.items) i["_array"] = array;
  return res;
}

function unitOf(p: VerbPlan, path: string): Unit | undefined {
  return p.spec.units?.[path];
}

export function tableMessage(
  p: VerbPlan,
  result: ListResult,
  rctx: RenderContext,
  columns?: readonly string[],
  title?: string,
) {
  const many = rctx.arrays.length > 1;
  const where = many ? `${rctx.arrays.length} arrays` : `array ${rctx.arrays[0] ?? "?"}`;
  const cols = columns ?? p.spec.columns;
  // A list's own words (spec.listing); a GET action's table (with a title) keeps the generic ones.
  const words = title ? undefined : p.spec.listing;
  if (result.items.length === 0) {
    const none = title
      ? `${title} on ${where}: no results.`
      : words?.empty
        ? fill(words.empty, { where })
        : `No ${p.spec.noun} objects on ${where}.`;
    return message(none, [{ type: "section", text: rich`${none}` }]);
  }
  const units = words?.units ?? p.spec.units;
  // A plan's own columns (the same array every time) are settled once per plan (issue 27).
  const cells = cellsOf(cols, units, cols === p.spec.columns);
  const detail = words?.detail ?? {};
  const arrayKey = words?.arrayKey ?? "_array";
  const rows = result.items.map((i) => {
    const row: Record<string, string> = { [arrayKey]: String(i["_array"] ?? "") };
    for (const c of cells) {
      row[c.key] = c.format(c.read(i), rctx);
      const at = detail[c.key];
      const more = at === undefined ? undefined : valueAt(i, at);
      if (more !== undefined && more !== null && more !== "") row[c.key] += ` (${String(more)})`;
    }
    return row;
  });
  const values = result.items.map((i) => {
    const row: Record<string, RawValue> = { [arrayKey]: String(i["_array"] ?? "") };
    for (const c of cells) row[c.key] = rawValueOf(c.key, units?.[c.key], c.read(i));
    return row;
  });
  const headline = title
    ? `${title} on ${where}: ${countOf(result.items.length, "result")}`
    : `${result.capped ? "First " : ""}${words?.noun ? countOf(result.items.length, words.noun) : countNoun(p, result.items.length)} on ${where}`;
  const labels = words?.labels ? { ...p.spec.labels, ...words.labels } : p.spec.labels;
  const table = truncatedTable(columnsOf(cols, many, labels, arrayKey), rows, {
    limit: rctx.tableRows,
    filename: words?.filename ?? `${p.spec.noun.replace(/ /g, "-")}.csv`,
    title: headline,
    values,
  });
  const blocks: Block[] = [
    { type: "header", text: headline },
    table.block,
    ...callouts(p, result.items, rctx, units),
  ];
  if (table.attachments.length)
    blocks.push({ type: "context", text: rich`The full list is attached as CSV.` });
  return message(headline, blocks, table.attachments.length ? { attachments: table.attachments } : {});
}

export function listCommand(p: VerbPlan): CommandDefinition {
  return withLazyArgs(() => argsSchema(p, listExtras(p)), {
    ...headOf(p),
    async run(args: Args, ctx): Promise<ListResult> {
      await requireListVersion(p, args, ctx);
      const query: Query = { ...selectorQuery(p, args) };
      const filter = filterOf(p, args, ctx.now());
      if (filter)
        query["filter"] = query["filter"] ? and(query["filter"] as Filter, filter as Filter) : filter;
      if (typeof args["sort"] === "string") query["sort"] = args["sort"];
      else if (p.spec.defaultSort && "sort" in p.endpoint.params) query["sort"] = p.spec.defaultSort;
      for (const f of p.spec.filters ?? [])
        if (f.kind === "param-since" && typeof args[f.option] === "number")
          query[f.field] = ctx.now() - (args[f.option] as number);
      const res = await fetchAll(ctx, p, query, (args["limit"] as number | undefined) ?? MAX_ROWS);
      return markArray(res, ctx.arrayName);
    },
    merge: (results) => ({
      items: results.flatMap((r) => r.result.items),
      capped: results.some((r) => r.result.capped),
      files: results.flatMap((r) => r.result.files ?? []),
    }),
    render: (result, _args, rctx) => withFile(p.spec.file, tableMessage(p, result, rctx), result),
  });
}

/**
 * Where the catalogue asks for a file (logs, the MIB): the file the array answered, as it came, or else the items
 * as JSON beside the table.
 */
function withFile(file: string | undefined, m: Message, result: ListResult): Message {
  if (!file || result.items.length === 0) return m;
  if (result.files?.length) {
    return {
      ...m,
      attachments: [
        ...(m.attachments ?? []),
        ...result.files.map((f) => ({
          filename: f.filename,
          title: f.filename,
          contentType: "application/octet-stream" as const,
          content: f.bytes,
        })),
      ],
    };
  }
  const content = JSON.stringify(
    result.items.map(({ _array, ...rest }) => rest),
    null,
    2,
  );
  return {
    ...m,
    attachments: [
      ...(m.attachments ?? []),
      { filename: file, title: file, contentType: "text/plain", content },
    ],
  };
}

export function showCommand(p: VerbPlan): CommandDefinition {
  return withLazyArgs(() => argsSchema(p), {
    ...headOf(p),
    async run(args: Args, ctx): Promise<{ item: Item; target: string }> {
      await requireVersion(p, args, ctx);
      // An array answers a name it does not have with a refusal ("… does not exist"), not an empty list.
      const page = await ctx.array
        .get<Item>(p.path, { query: selectorQuery(p, args) })
        .catch((err: unknown) => {
          if (
            errorCode(err) === "ARRAY_REJECTED" &&
            /does not exist|not found/i.test(String((err as Error).message))
          )
            return { items: [] as Item[] };
          throw err;
        });
      const item = page.items[0];
      const target = targetOf(p, args);
      if (!item) {
        const notFound = `There is no ${target} on array ${ctx.arrayName}.`;
        const named = p.select[0] && args[selectorKey(p.select[0].label)];
        if (typeof named !== "string" || p.select.length !== 1)
          throw new UserFacingError("NOT_FOUND", notFound);
        throw await notFoundError(ctx, p.path, named, notFound);
      }
      return { item, target };
    },
    render({ item, target }, _args, rctx) {
      const fields = p.spec.show ?? fieldsOf(item).filter((f) => f !== "_array");
      const title = `${target.charAt(0).toUpperCase()}${target.slice(1)} on ${rctx.arrays.join(", ")}`;
      const blocks: Block[] = [{ type: "header", text: title }];
      const object: ShownObject = { name: nameOf(p, item), values: {}, display: {} };
      const pairs = fields.map((f) => {
        const text = formatValue(f, valueAt(item, f), unitOf(p, f), rctx);
        object.values[f] = rawValueOf(f, unitOf(p, f), valueAt(item, f));
        object.display[f] = text;
        return { label: p.spec.labels?.[f] ?? labelOf(f), value: rich`${text}` };
      });
      for (let i = 0; i < pairs.length; i += 10)
        blocks.push({ type: "fields", fields: pairs.slice(i, i + 10) });
      blocks.push(...callouts(p, [item], rctx));
      return message(title, blocks, { object });
    },
  });
}

/** A GET on another path (`test`, `download`): a table of whatever comes back, or a file. */
export function readActionCommand(p: VerbPlan): CommandDefinition {
  return withLazyArgs(() => argsSchema(p), {
    ...headOf(p),
    async run(args: Args, ctx): Promise<ListResult> {
      await requireVersion(p, args, ctx);
      const res = await fetchAll(ctx, p, selectorQuery(p, args), MAX_ROWS);
      return markArray(res, ctx.arrayName);
    },
    merge: (results) => ({
      items: results.flatMap((r) => r.result.items),
      capped: results.some((r) => r.result.capped),
      files: results.flatMap((r) => r.result.files ?? []),
    }),
    render(result, _args, rctx) {
      const columns = [...new Set(result.items.flatMap((i) => fieldsOf(i)))].filter((c) => c !== "_array");
      return withFile(
        p.file,
        tableMessage(p, result, rctx, columns.slice(0, 8), `${p.spec.noun} ${p.verb}`),
        result,
      );
    },
  });
}
