/**
 * The App Home tab: what the bot is, the caller's role, their arrays and how they are, approvals they can
 * act on, and the command index. Data comes through `HomePort` (the pipeline and pool fill it); building
 * the view is pure.
 */

import { type Block, type Message, Rich, rich } from "../core/presentation/message.js";
import type { FleetArray } from "../core/requests/fleet.js";
import { wordOf } from "../core/words/tokenize.js";
import { countOf, formatBytes, formatDuration } from "../core/words/units.js";
import { type SlackBlock, toSlack } from "./blocks.js";
import { standingCounts, worstFirst } from "./home-fleet.js";

export interface HomeArray {
  name: string;
  reachable: boolean;
  /** Version, capacity line, or the reason it is unreachable. */
  detail?: string;
}

export interface HomePending {
  id: string;
  summary: string;
  requester: string;
  /** Where the approval request was posted, so the person can go and click. */
  channelId?: string;
  expiresAt?: Date;
  approvals?: number;
  required?: number;
}

export interface HomeData {
  role: string;
  arrays: readonly HomeArray[];
  /** The fleet at a glance (src/core/requests/fleet.ts), for the arrays this person may read; absent when not read. */
  fleet?: readonly FleetArray[];
  pending: readonly HomePending[];
  help: readonly { usage: string; summary: string }[];
}

export interface HomePort {
  load(userId: string): Promise<HomeData>;
}

export interface HomeView {
  type: "home";
  blocks: SlackBlock[];
}

const MAX_LINES = 40;
/** Arrays and approvals that get buttons: two blocks an array would otherwise pass a view's 100 blocks. */
const MAX_BUTTON_ARRAYS = 20;
const MAX_OPEN_BUTTONS = 10;

/** Action ids of the home's buttons; src/slack/listeners/home.ts answers them. */
export const HOME_RUN_ACTION = "home.run";
export const HOME_OPEN_ACTION = "home.open";

/**
 * The reads a home button runs on one array, by the name its value carries: a click names one of these and
 * an array, never a command line, so a forged value cannot run anything else.
 */
export const HOME_COMMANDS = {
  alerts: { label: "Alerts", line: (array: string) => `alert list --array ${wordOf(array, "array")}` },
  forecast: {
    label: "Space forecast",
    line: (array: string) => `space forecast --array ${wordOf(array, "array")}`,
  },
  rpo: {
    label: "Links behind RPO",
    line: (array: string) => `replication status --array ${wordOf(array, "array")}`,
  },
} as const;
export type HomeCommand = keyof typeof HOME_COMMANDS;

export function homeButtonValue(command: HomeCommand, array: string): string {
  return JSON.stringify({ command, array });
}

export function readHomeButton(
  value: string | undefined,
): { command: HomeCommand; array: string } | undefined {
  try {
    const v = JSON.parse(value ?? "") as { command?: unknown; array?: unknown };
    if (typeof v.array !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(v.array)) return undefined;
    return typeof v.command === "string" && Object.hasOwn(HOME_COMMANDS, v.command)
      ? { command: v.command as HomeCommand, array: v.array }
      : undefined;
  } catch {
    return undefined;
  }
}

function arrayButtons(array: string): Block {
  return {
    type: "actions",
    buttons: (Object.keys(HOME_COMMANDS) as HomeCommand[]).map((c) => ({
      actionId: HOME_RUN_ACTION,
      label: HOME_COMMANDS[c].label,
      value: homeButtonValue(c, array),
    })),
  };
}

function channelLink(id: string | undefined): Rich {
  return id !== undefined && /^[CG][A-Z0-9]+$/.test(id) ? new Rich(` in <#${id}>`) : new Rich("");
}

function lines(items: readonly Rich[], more: number): Rich {
  const text = items.map((r) => r.markup).join("\n");
  return new Rich(more > 0 ? `${text}\n_…and ${more} more_` : text);
}

const days = (d: number) => (d < 1 ? "today" : d < 2 ? "in 1 day" : `in ${Math.round(d)} days`);

/** One array: capacity and forecast, alerts, replication, certificates, and the commands that go deeper. */
function fleetLine(f: FleetArray): Rich {
  if (f.error !== undefined)
    return rich`:red_circle: *${f.array}*: not read (${f.error}). Its other parts are unknown; \`/array arrays\` shows its state.`;
  const parts: Rich[] = [];
  const c = f.capacity;
  if (c && c.total > 0) {
    const pct = Math.round((100 * c.used) / c.total);
    const when = c.daysTo
      .filter((d) => d.days !== undefined)
      .map((d) => rich`${Math.round(d.level * 100)} % ${d.days === 0 ? "reached" : days(d.days ?? 0)}`);
    const forecast =
      when.length > 0
        ? rich` (${new Rich(when.map((w) => w.markup).join(", "))})`
        : c.noForecast
          ? rich` (no forecast yet)`
          : rich` (not growing)`;
    parts.push(rich`${pct} % used of ${formatBytes(c.total)}${forecast}`);
  }
  const a = f.alerts;
  if (a) {
    const open = (["critical", "warning", "info"] as const)
      .filter((s) => a[s] > 0)
      .map((s) => `${a[s]} ${s}`);
    parts.push(open.length > 0 ? rich`alerts: ${open.join(", ")}` : rich`no open alerts`);
  }
  const l = f.links;
  if (l && l.total > 0) {
    const bad = [l.unhealthy > 0 ? `${l.unhealthy} unhealthy` : "", l.paused > 0 ? `${l.paused} paused` : ""]
      .filter((x) => x !== "")
      .join(", ");
    parts.push(rich`${l.total} replica ${l.total === 1 ? "link" : "links"}${bad ? rich` (${bad})` : rich``}`);
  }
  if (f.certificates && f.certificates.length > 0) {
    const first = f.certificates[0];
    if (first)
      parts.push(
        first.daysLeft < 0
          ? rich`certificate ${first.name} has expired`
          : rich`certificate ${first.name} ends ${days(first.daysLeft)}${f.certificates.length > 1 ? rich` (+${f.certificates.length - 1} more)` : rich``}`,
      );
  }
  // A window in force is why alerts are quiet: said first thing after the numbers.
  for (const w of f.maintenance ?? [])
    parts.push(rich`maintenance window ${w.name} in force, ends in ${formatDuration(w.endsInMs)}`);
  const worry =
    (a?.critical ?? 0) > 0 ||
    (l?.unhealthy ?? 0) > 0 ||
    (l?.paused ?? 0) > 0 ||
    (f.certificates?.length ?? 0) > 0
      ? ":large_orange_circle:"
      : ":large_green_circle:";
  return rich`${new Rich(worry)} *${f.array}*: ${new Rich(parts.map((p) => p.markup).join(" · "))}\nMore: \`/array space forecast --array ${f.array}\`, \`/array alert list --array ${f.array}\`, \`/array replication status --array ${f.array}\``;
}

export function homeMessage(data: HomeData, now: Date = new Date()): Message {
  const blocks: Block[] = [
    { type: "header", text: "Array Ops" },
    {
      type: "section",
      text: rich`I run and watch Pure Storage FlashBlade arrays from Slack. Type \`/array help\` in any channel I am in, or start with \`/array status\`.`,
    },
    { type: "context", text: rich`Your role: *${data.role}*` },
    { type: "divider" },
    { type: "header", text: "Your arrays" },
  ];
  if (data.arrays.length === 0) {
    blocks.push({ type: "section", text: rich`No arrays are configured for you.` });
  } else if (data.fleet !== undefined && data.fleet.length > 0) {
    // The fleet at a glance: one section per array, each read as this person within the deadline. A fleet
    // larger than the view holds is summed up first and shown worst first; the rest are counted.
    const large = data.fleet.length > MAX_LINES;
    const fleet = large ? worstFirst(data.fleet) : data.fleet;
    if (large)
      blocks.push({
        type: "context",
        text: rich`${countOf(data.fleet.length, "array")}: ${standingCounts(data.fleet)}. The ${MAX_LINES} most in need of a look first.`,
      });
    fleet.slice(0, MAX_LINES).forEach((f, i) => {
      blocks.push({ type: "section", text: fleetLine(f) });
      if (i < MAX_BUTTON_ARRAYS) blocks.push(arrayButtons(f.array));
    });
    if (large)
      blocks.push({
        type: "context",
        text: rich`…and ${countOf(data.fleet.length - MAX_LINES, "more array")} (${standingCounts(fleet.slice(MAX_LINES))}): \`/array space --array all\`, \`/array arrays\``,
      });
  } else {
    const shown = data.arrays.slice(0, MAX_LINES).map((a) => {
      const icon = new Rich(a.reachable ? ":large_green_circle:" : ":red_circle:");
      const detail = a.detail === undefined ? new Rich("") : rich` (${a.detail})`;
      return rich`${icon} *${a.name}* ${a.reachable ? "reachable" : "unreachable"}${detail}`;
    });
    blocks.push({ type: "section", text: lines(shown, data.arrays.length - shown.length) });
  }
  blocks.push({ type: "header", text: "Approvals waiting for you" });
  if (data.pending.length === 0) {
    blocks.push({ type: "section", text: rich`Nothing is waiting for your approval.` });
  } else {
    const shown = data.pending.slice(0, MAX_LINES).map((p) => {
      const progress =
        p.required === undefined ? new Rich("") : rich`, ${p.approvals ?? 0}/${p.required} approvals`;
      const expires =
        p.expiresAt === undefined
          ? new Rich("")
          : rich`, expires in ${Math.max(0, Math.round((p.expiresAt.getTime() - now.getTime()) / 60_000))} min`;
      return rich`• ${p.summary}, requested by ${p.requester}${progress}${expires}${channelLink(p.channelId)}`;
    });
    blocks.push({ type: "section", text: lines(shown, data.pending.length - shown.length) });
    // "Open" goes to the channel where the request's card is, to read it and click Approve or Deny there.
    const open = data.pending
      .slice(0, MAX_OPEN_BUTTONS)
      .filter((p) => p.channelId !== undefined && /^[CG][A-Z0-9]+$/.test(p.channelId));
    if (open.length > 0)
      blocks.push({
        type: "actions",
        buttons: open.map((p) => ({
          actionId: HOME_OPEN_ACTION,
          label: `Open: ${p.summary}`,
          value: p.id.slice(0, 100),
          url: `https://slack.com/app_redirect?channel=${p.channelId}`,
        })),
      });
  }
  blocks.push({ type: "header", text: "Commands by area (details: /array help <resource>)" });
  // One section per area keeps each well under Slack's 3,000 characters per section.
  for (const h of data.help) blocks.push({ type: "section", text: rich`*${h.usage}*: ${h.summary}` });
  return { text: "Array Ops home", blocks };
}

export function homeView(data: HomeData, now?: Date): HomeView {
  return { type: "home", blocks: toSlack(homeMessage(data, now), "home").blocks };
}
