/**
 * `/array alert …`: the array's alerts (list, show, flag, unflag) read and changed on the array itself, and
 * the bot's alert routing (routes, test) answered by the running alert engine. Hand-written because an alert is
 * named by its number (`alert flag 2`, read with a filter on `index`), the list filters by state and severity and
 * shows the posts the bot made for each alert, and routes and test ask the bot's alert engine, not the array.
 */
import { z } from "zod";
import {
  type CommandContext,
  defineCommand,
  defineResource,
  type Impact,
} from "../src/core/catalogue/define-command.js";
import type { MessageRef } from "../src/core/context/pipeline-types.js";
import { formatWhen } from "../src/core/presentation/format-time.js";
import { message, plain, Rich, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { count } from "../src/core/words/arg-types.js";
import { countWire, wired } from "../src/core/words/arg-wire.js";
import { countOf } from "../src/core/words/units.js";
import { UserFacingError } from "../src/errors.js";
import { and, eq, type Filter, ne } from "../src/flashblade/filter.js";
import { type Alert, alertSchema } from "../src/flashblade/schemas.js";
import { listingMessage } from "./shared/listing.js";
import { itemsOf, planned } from "./shared/plan.js";
import { type Fact, factFields, isoTime, shownObject } from "./shared/shown.js";

const SEVERITIES = ["info", "warning", "critical"] as const;
const CHANNEL_ID = /^[CG][A-Z0-9]{2,30}$/;
/** Alerts fetched at most per array; the message shows the first rows and the CSV holds them all. */
const MAX_ROWS = 1000;

export interface AlertRow extends Alert {
  array: string;
}

const index = wired(z.union([z.number(), z.string()]), countWire(1, Number.MAX_SAFE_INTEGER))
  .transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({
        code: "custom",
        message: `\`${String(v)}\` is not an alert number (see \`alert list\`)`,
      });
      return z.NEVER;
    }
    return n;
  })
  .describe("the alert's number, as `alert list` shows it");

/** A channel mention shown as a link; ids only come from our own records. */
const channelLink = (id: string): Rich => (CHANNEL_ID.test(id) ? new Rich(`<#${id}>`) : plain(id));

async function getAlert(ctx: CommandContext, n: number): Promise<AlertRow> {
  // A filter answers "none" with an empty list, where names= would make the array refuse the whole call.
  const page = await ctx.array.get("/alerts", { query: { filter: eq("index", n) }, schema: alertSchema });
  const a = page.items[0];
  if (!a) {
    throw new UserFacingError("ALERT_NOT_FOUND", `Array ${ctx.arrayName} has no alert ${n}.`, {
      suggestions: [`/array alert list --array ${ctx.arrayName} --state all`],
    });
  }
  return { ...a, array: ctx.arrayName };
}

export const alertList = defineCommand({
  verb: "list",
  summary: "List the array's alerts (open ones by default), newest first",
  examples: ["alert list", "alert list --severity critical", "alert list --state all --array all"],
  role: "viewer",
  endpoints: ["GET /alerts"],
  args: z.object({
    severity: z.enum(SEVERITIES).optional().describe("only this severity"),
    state: z.enum(["open", "closed", "all"]).default("open").describe("open (default), closed or all"),
    limit: count({ max: MAX_ROWS }).optional().describe(`at most this many per array (default ${MAX_ROWS})`),
  }),
  async run(args, ctx): Promise<AlertRow[]> {
    const filters: Filter[] = [];
    if (args.state === "open") filters.push(ne("state", "closed"));
    if (args.state === "closed") filters.push(eq("state", "closed"));
    if (args.severity) filters.push(eq("severity", args.severity));
    const query = { filter: filters.length > 0 ? and(...filters) : undefined, sort: "index-" };
    const rows: AlertRow[] = [];
    const cap = args.limit ?? MAX_ROWS;
    for await (const a of ctx.array.iterate("/alerts", { query, schema: alertSchema })) {
      if (rows.length >= cap) break;
      rows.push({ ...a, array: ctx.arrayName });
    }
    return rows;
  },
  merge: (results) => results.flatMap((r) => r.result).sort((x, y) => (y.created ?? 0) - (x.created ?? 0)),
  render(rows, args, rctx) {
    const many = rctx.arrays.length > 1;
    const where = many ? `${rctx.arrays.length} arrays` : `array ${rctx.arrays[0] ?? "?"}`;
    const what = `${args.state === "all" ? "" : `${args.state} `}${args.severity ? `${args.severity} ` : ""}alert`;
    if (rows.length === 0)
      return message(`No ${what}s on ${where}.`, [{ type: "section", text: rich`No ${what}s on ${where}.` }]);
    const table = truncatedTable(
      [
        ...(many ? [{ key: "array", label: "Array" }] : []),
        { key: "index", label: "Alert", align: "right" as const },
        // The number an admin searches Pure's knowledge base with.
        { key: "code", label: "Code", align: "right" as const },
        { key: "severity", label: "Severity" },
        { key: "state", label: "State" },
        { key: "component", label: "Component" },
        { key: "subject", label: "Summary" },
        { key: "created", label: "Opened" },
        { key: "flagged", label: "Flagged" },
      ],
      rows.map((a) => ({
        array: a.array,
        index: String(a.index ?? a.name),
        code: a.code === undefined ? "–" : String(a.code),
        severity: a.severity ?? "–",
        state: a.state ?? "–",
        component: a.component || "–",
        subject: a.subject || `code ${a.code ?? "?"}`,
        created: a.created === undefined ? "–" : formatWhen(a.created, rctx.now, rctx.timeZone),
        flagged: a.flagged ? "yes" : "no",
      })),
      {
        limit: rctx.tableRows,
        filename: "alerts.csv",
        title: "Alerts",
        values: rows.map((a) => ({
          array: a.array,
          index: a.index ?? null,
          code: a.code ?? null,
          severity: a.severity ?? null,
          state: a.state ?? null,
          component: a.component ?? null,
          subject: a.subject ?? null,
          created: isoTime(a.created),
          flagged: a.flagged ?? false,
        })),
      },
    );
    return listingMessage(`${countOf(rows.length, what)} on ${where}`, table);
  },
});

export const alertShow = defineCommand({
  verb: "show",
  summary: "Show one alert: text, times, what to do, and where the bot posted it",
  examples: ["alert show 2", "alert show 2 --array fb-lab-01"],
  role: "viewer",
  endpoints: ["GET /alerts"],
  positional: ["index"],
  args: z.object({ index }),
  async run(args, ctx): Promise<{ alert: AlertRow; posted: MessageRef[] }> {
    const alert = await getAlert(ctx, args.index);
    const posted = (await ctx.alerts?.postedIn(ctx.arrayName, alert.name)) ?? [];
    return { alert, posted };
  },
  render({ alert: a, posted }, _args, rctx) {
    const title = a.subject || `Alert ${a.index ?? a.name}`;
    const when = (ms: number | undefined) =>
      ms === undefined ? "–" : formatWhen(ms, rctx.now, rctx.timeZone);
    const facts: Fact[] = [
      ["array", "Array", a.array, a.array],
      ["index", "Alert", a.index ?? null, String(a.index ?? a.name)],
      ["severity", "Severity", a.severity ?? null, a.severity ?? "–"],
      ["state", "State", a.state ?? null, a.state ?? "–"],
      ["component", "Component", a.component ?? null, a.component || "–"],
      ["code", "Code", a.code ?? null, String(a.code ?? "–")],
      ["created", "Opened", isoTime(a.created), when(a.created)],
      ["updated", "Updated", isoTime(a.updated), when(a.updated)],
      ["flagged", "Flagged", a.flagged ?? false, a.flagged ? "yes" : "no"],
    ];
    const blocks: Parameters<typeof message>[1] = [
      { type: "header", text: title },
      { type: "fields", fields: factFields(facts) },
    ];
    if (a.description) blocks.push({ type: "section", text: plain(a.description) });
    if (a.action) blocks.push({ type: "context", text: rich`What to do: ${a.action}` });
    if (a.knowledge_base_url)
      blocks.push({ type: "context", text: rich`Knowledge base: ${a.knowledge_base_url}` });
    if (posted.length > 0) {
      const links = posted.map((r) => channelLink(r.channelId).markup).join(", ");
      blocks.push({ type: "context", text: new Rich(`Posted in ${links}`) });
    }
    const object = shownObject(a.name, facts, {
      subject: a.subject ?? null,
      description: a.description ?? null,
      action: a.action ?? null,
      knowledge_base_url: a.knowledge_base_url ?? null,
    });
    return message(`${title} (alert ${a.index ?? a.name} on ${a.array})`, blocks, { object });
  },
});

function flagCommand(flagged: boolean) {
  const verb = flagged ? "flag" : "unflag";
  return defineCommand({
    verb,
    summary: flagged ? "Flag (acknowledge) an alert on the array" : "Remove an alert's flag on the array",
    examples: [`alert ${verb} 2`, `alert ${verb} 2 --array fb-lab-01`],
    role: "operator",
    endpoints: ["GET /alerts", `PATCH /alerts {flagged: ${flagged}}`],
    visibility: "in_channel",
    positional: ["index"],
    args: z.object({ index }),
    // A change like any other: the impact plans the PATCH, the pipeline sends it.
    async impact(args, ctx): Promise<Impact> {
      const before = await getAlert(ctx, args.index);
      return {
        target: `alert ${before.index ?? before.name}`,
        summary: rich`${flagged ? "Flags" : "Unflags"} alert ${before.index ?? before.name} on ${ctx.arrayName}${before.subject ? rich` (${before.subject})` : ""}.`,
        facts: [],
        warnings: [],
        state: { flagged: before.flagged ?? null },
        requests: [planned("PATCH", "/alerts", { names: [before.name] }, { flagged })],
        read: before,
      };
    },
    result(responses, _args, ctx, impact): AlertRow {
      const [after] = itemsOf(ctx, responses, alertSchema);
      return { ...(impact.read as AlertRow), ...after, array: ctx.arrayName };
    },
    render(a, _args, rctx) {
      const text = `${flagged ? "Flagged" : "Unflagged"} alert ${a.index ?? a.name} on ${rctx.arrays[0] ?? a.array}${a.subject ? ` (${a.subject})` : ""}.`;
      return message(text, [{ type: "section", text: plain(text) }], { visibility: "in_channel" });
    },
  });
}

export const alertFlag = flagCommand(true);
export const alertUnflag = flagCommand(false);

function requireEngine<T>(port: T | undefined): T {
  if (port === undefined) {
    throw new UserFacingError(
      "ALERTS_NOT_RUNNING",
      "Alert notifications are not running in this bot (they run with Slack and alerts.enabled).",
    );
  }
  return port;
}

export const alertRoutes = defineCommand({
  verb: "routes",
  summary: "Show which alert routes post into this channel",
  examples: ["alert routes"],
  role: "viewer",
  endpoints: [],
  scope: "global",
  args: z.object({}),
  async run(_args, ctx) {
    return { channel: ctx.actor.channelId, routes: requireEngine(ctx.alerts).routesFor(ctx.actor.channelId) };
  },
  render({ channel, routes }) {
    if (routes.length === 0) {
      const text = "No alert route posts into this channel.";
      return message(text, [
        { type: "section", text: plain(text) },
        { type: "context", text: rich`Routes are set in the configuration file under alerts.routes.` },
      ]);
    }
    const headline = `${countOf(routes.length, "alert route")} ${routes.length === 1 ? "posts" : "post"} into this channel`;
    return message(headline, [
      { type: "section", text: new Rich(`*${plain(headline).markup}* (${channelLink(channel).markup})`) },
      {
        type: "table",
        columns: [
          { key: "name", label: "Route" },
          { key: "summary", label: "Matches" },
        ],
        rows: routes,
      },
    ]);
  },
});

export const alertTest = defineCommand({
  verb: "test",
  summary:
    "Post a test alert message in a channel (this one by default), to check routing and the bot's access",
  examples: ["alert test", "alert test C0123456789"],
  role: "operator",
  endpoints: [],
  scope: "global",
  positional: ["channel"],
  args: z.object({
    channel: z
      .string()
      .trim()
      .regex(/^#?[CG][A-Z0-9]{2,30}$/, "give the channel ID (C…), as shown in the channel's details")
      .transform((c) => c.replace(/^#/, ""))
      .optional()
      .describe("channel ID; this channel when left out"),
  }),
  async run(args, ctx): Promise<MessageRef> {
    const channel = args.channel ?? ctx.actor.channelId;
    return requireEngine(ctx.alerts).postTest(channel, ctx.actor.displayName ?? ctx.actor.userId);
  },
  render(ref) {
    const text = `Posted a test alert in ${ref.channelId}.`;
    return message(text, [
      { type: "section", text: new Rich(`Posted a test alert in ${channelLink(ref.channelId).markup}.`) },
    ]);
  },
});

export const alertResource = defineResource({
  name: "alert",
  area: "Operations",
  aliases: ["alerts"],
  summary: "Array alerts, and where the bot posts them",
  defaultVerb: "list",
  commands: [alertList, alertShow, alertFlag, alertUnflag, alertRoutes, alertTest],
});
