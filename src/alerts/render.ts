/**
 * Cards to neutral messages (pure: data in, message out). The Slack layer turns them into Block Kit; array
 * text (subjects, descriptions, components) only ever enters through `rich`/`plain`, so it is escaped.
 */
import {
  type Block,
  type Button,
  type Field,
  type Message,
  plain,
  type Rich,
  rich,
} from "../core/presentation/message.js";
import { wordOf } from "../core/words/tokenize.js";
import { alertTitle, isClosed } from "./alert-model.js";
import { formatSpan, formatTime, formatWindow } from "./format.js";
import { renderFleetSummary } from "./render-fleet.js";
import { type AlertRecord, type Card, SEVERITIES, type Severity, severityRank } from "./types.js";

export const ACTION = {
  flag: "alert.flag",
  unflag: "alert.unflag",
  snooze: "alert.snooze",
  followUp: "alert.followup",
} as const;

/** Codes whose alerts are about space: they offer capacity follow-ups. */
export const CAPACITY_CODES: ReadonlySet<number> = new Set([1100, 1101, 1102, 1106, 1128]);

export const FOLLOW_UPS = {
  space: { label: "Array space", command: (array: string) => `space --array ${wordOf(array, "array")}` },
  "fs-top": {
    label: "Largest file systems",
    command: (array: string) => `fs list --sort used- --array ${wordOf(array, "array")}`,
  },
} as const;
export type FollowUpName = keyof typeof FOLLOW_UPS;

export interface RenderEnv {
  now: number;
  timeZone: string;
  flap: { window: number; reopenings: number };
  snoozePresets: readonly number[];
  /** Snooze on this card's family (or, for summaries, any member family) in its channel. */
  snoozedUntil?: number;
  stormThreshold: number;
}

const EMOJI: Record<Severity, string> = { critical: "🔴", warning: "🟠", info: "🔵" };
const RESOLVED = "✅";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function snoozeButtons(card: Card, env: RenderEnv): Button[] {
  return env.snoozePresets.map((ms) => ({
    actionId: ACTION.snooze,
    label: `Snooze ${formatWindow(ms, true)}`,
    value: `${ms}:${card.id}`,
  }));
}

export function renderCard(card: Card, members: readonly AlertRecord[], env: RenderEnv): Message {
  if (card.kind === "reachability") return renderReachability(card, env);
  if (card.kind === "summary")
    return card.fleet ? renderFleetSummary(members) : renderSummary(card, members, env);
  return renderAlertCard(card, members, env);
}

function renderAlertCard(card: Card, members: readonly AlertRecord[], env: RenderEnv): Message {
  const a = members[members.length - 1];
  if (!a) return { text: `Alert on ${card.array} (no longer known)`, blocks: [] };
  const closed = isClosed(a);
  const title = alertTitle(a);
  const othersOpen = members.filter((m) => m !== a && !isClosed(m));
  const resolved = closed && othersOpen.length === 0;
  const mark = resolved ? RESOLVED : EMOJI[a.severity];
  const text = resolved
    ? `${mark} Resolved on ${card.array}: ${title} (alert ${a.index})`
    : `${mark} ${cap(a.severity)} alert on ${card.array}: ${title} (alert ${a.index})`;

  const fields: Field[] = [
    { label: "Array", value: plain(card.array) },
    { label: "Severity", value: plain(a.severity) },
    { label: "Component", value: plain(a.component || "–") },
    { label: "Code", value: plain(String(a.code)) },
    { label: "Alert", value: plain(String(a.index)) },
    { label: "State", value: plain(a.state) },
    { label: "Opened", value: plain(formatTime(a.created, env.timeZone)) },
    { label: "Flagged", value: plain(a.flagged ? "yes" : "no") },
  ];
  const notes: Rich[] = [];
  if (resolved) {
    notes.push(
      rich`*Resolved* ${formatTime(a.updated, env.timeZone)}, open for ${formatSpan(a.updated - a.created)}.`,
    );
  }
  const n = card.reopenings.length;
  if (n > 0) {
    const flapping = n >= env.flap.reopenings;
    notes.push(
      rich`${flapping ? "Flapping: r" : "R"}eopened ${n}× in the last ${formatWindow(env.flap.window)} (${members.length} alerts on this message).`,
    );
  }
  if (othersOpen.length > 0) notes.push(rich`Also open: alert ${othersOpen.map((m) => m.index).join(", ")}.`);
  if (env.snoozedUntil !== undefined && env.snoozedUntil > env.now) {
    notes.push(rich`Snoozed until ${formatTime(env.snoozedUntil, env.timeZone)}.`);
  }
  if (card.holdReason && card.holdUntil !== undefined) {
    notes.push(rich`Held during ${card.holdReason} until ${formatTime(card.holdUntil, env.timeZone)}.`);
  }
  if (a.action) notes.push(rich`What to do: ${a.action}`);
  if (a.knowledgeBaseUrl) notes.push(rich`Knowledge base: ${a.knowledgeBaseUrl}`);

  const blocks: Block[] = [
    { type: "header", text: `${mark} ${title}` },
    {
      type: "section",
      text: rich`*${cap(a.severity)}* alert on *${card.array}*${a.description ? rich`: ${a.description}` : ""}`,
    },
    { type: "fields", fields },
  ];
  for (const note of notes) blocks.push({ type: "context", text: note });
  if (!resolved) {
    const buttons: Button[] = [
      a.flagged
        ? { actionId: ACTION.unflag, label: "Unflag", value: card.id }
        : { actionId: ACTION.flag, label: "Flag", value: card.id, style: "primary" },
      ...snoozeButtons(card, env),
    ];
    if (CAPACITY_CODES.has(a.code)) {
      for (const [name, f] of Object.entries(FOLLOW_UPS)) {
        buttons.push({ actionId: ACTION.followUp, label: f.label, value: `${name}:${card.id}` });
      }
    }
    blocks.push({ type: "actions", buttons });
  }
  return { text, blocks, visibility: "in_channel" };
}

function renderSummary(card: Card, members: readonly AlertRecord[], env: RenderEnv): Message {
  const open = members.filter((m) => !isClosed(m));
  const sorted = [...members].sort(
    (x, y) => severityRank(y.severity) - severityRank(x.severity) || x.index - y.index,
  );
  const counts = SEVERITIES.map((s) => [s, open.filter((m) => m.severity === s).length] as const)
    .filter(([, c]) => c > 0)
    .map(([s, c]) => `${c} ${s}`)
    .reverse();
  const worst = open.reduce<Severity | undefined>(
    (w, m) => (w === undefined || severityRank(m.severity) > severityRank(w) ? m.severity : w),
    undefined,
  );
  const mark = worst ? EMOJI[worst] : RESOLVED;
  const headline =
    open.length > 0
      ? `${members.length} new alerts on ${card.array} (${open.length} open)`
      : `${members.length} alerts on ${card.array}, all closed`;
  const rows = sorted.slice(0, 100).map((m) => ({
    alert: String(m.index),
    severity: m.severity,
    component: m.component || "–",
    summary: alertTitle(m),
    state: m.state,
  }));
  const blocks: Block[] = [
    { type: "header", text: `${mark} ${headline}` },
    {
      type: "section",
      text: rich`More than ${env.stormThreshold} alerts opened on *${card.array}* at once, so they are listed in this one message. Changes go into its thread.`,
    },
    {
      type: "table",
      columns: [
        { key: "alert", label: "Alert", align: "right" },
        { key: "severity", label: "Severity" },
        { key: "component", label: "Component" },
        { key: "summary", label: "Summary" },
        { key: "state", label: "State" },
      ],
      rows,
      totalRows: members.length,
    },
  ];
  if (counts.length > 0) blocks.push({ type: "context", text: rich`Open: ${counts.join(", ")}.` });
  if (env.snoozedUntil !== undefined && env.snoozedUntil > env.now) {
    blocks.push({
      type: "context",
      text: rich`Snoozed until ${formatTime(env.snoozedUntil, env.timeZone)}.`,
    });
  }
  if (open.length > 0) blocks.push({ type: "actions", buttons: snoozeButtons(card, env) });
  return { text: `${mark} ${headline}`, blocks, visibility: "in_channel" };
}

function renderReachability(card: Card, env: RenderEnv): Message {
  const o = card.outage ?? { since: card.createdAt, reason: "unknown" };
  if (o.until !== undefined) {
    const text = `${RESOLVED} ${card.array} is reachable again`;
    return {
      text,
      blocks: [
        { type: "header", text },
        {
          type: "section",
          text: rich`The bot could not poll *${card.array}* from ${formatTime(o.since, env.timeZone)} to ${formatTime(o.until, env.timeZone)} (${formatSpan(o.until - o.since)}).`,
        },
        { type: "context", text: rich`Last error: ${o.reason}` },
      ],
      visibility: "in_channel",
    };
  }
  const text = `${EMOJI.critical} ${card.array} is unreachable`;
  return {
    text,
    blocks: [
      { type: "header", text },
      {
        type: "section",
        text: rich`The bot has not been able to poll *${card.array}* since ${formatTime(o.since, env.timeZone)}. Alerts raised meanwhile are posted when it answers again.`,
      },
      { type: "fields", fields: [{ label: "Last error", value: plain(o.reason) }] },
    ],
    visibility: "in_channel",
  };
}
