/**
 * `/array history <noun> <name>`: the bot's own record of the changes it made to one object — who asked, who
 * confirmed or approved, when, the request lines it sent (as the card showed them, redacted) and what the array
 * answered. Read from the store (src/core/audit/audit-history.ts), so every replica answers the same; sends nothing to
 * the array. Hand-written because it reads the bot's own audit records, which no array endpoint holds.
 */
import { z } from "zod";
import { who as nameOf } from "../src/core/approvals/gate-messages.js";
import type { AuditRecord } from "../src/core/audit/audit.js";
import { defineCommand, defineResource, type RenderContext } from "../src/core/catalogue/define-command.js";
import { formatWhen } from "../src/core/presentation/format-time.js";
import { type Block, message, rich, type ShownObject } from "../src/core/presentation/message.js";
import { commandPath } from "../src/core/words/command-path.js";
import { countOf } from "../src/core/words/units.js";
import { UserFacingError } from "../src/errors.js";
import { type Fact, isoTime, shownObject } from "./shared/shown.js";

/** One change: the records of one request (typed, then its clicks), joined by its pending id. */
export interface Change {
  at: number;
  command: string;
  requestedBy: string;
  /** "Confirmed by alice", "Approved by bob, carol", "Vetoed by bob"; undefined for a change sent at once. */
  decidedBy?: string;
  /** Who approved it, when it was approved. */
  approvedBy?: string[];
  /** When its last record was written (for a change carried out: when it was sent). */
  lastAt: number;
  sent: string[];
  /** "done", "failed: FS_NOT_FOUND", "waiting for approval", "expired". */
  outcome: string;
}

export interface HistoryResult {
  array: string;
  kind: string;
  name: string;
  changes: Change[];
}

const DECIDED: Partial<Record<AuditRecord["decision"], string>> = {
  confirmed: "Confirmed by",
  approved: "Approved by",
  vetoed: "Vetoed by",
  cancelled: "Cancelled by",
};

const CLOSED: Partial<Record<AuditRecord["decision"], string>> = {
  expired: "expired without a decision; nothing was sent",
  voided: "voided: the array changed since the card was shown; nothing was sent",
  interrupted: "interrupted: the bot stopped while sending it",
  vetoed: "vetoed; nothing was sent",
  cancelled: "cancelled; nothing was sent",
};

/** The records of one object, oldest first, as one change per request. */
export function changesOf(records: readonly AuditRecord[]): Change[] {
  const groups = new Map<string, AuditRecord[]>();
  for (const r of records) {
    const key = r.pendingId ?? r.id;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const names = new Map<string, string>();
  for (const r of records) if (r.displayName) names.set(r.userId, r.displayName);
  const person = (id: string) => names.get(id) ?? id;
  return [...groups.values()].map((g) => {
    const asked = g.find((r) => r.decision === "pending" || r.decision === "allowed");
    const last = g.at(-1) as AuditRecord;
    // How the request stands: the last-written record of the furthest stage it reached. Records are written in
    // the order their writers finish, not the order things happened: the request's own record, or an approval
    // recorded on another replica, can land after the approval that carried the change out.
    const standing = g.reduce((best, r) => (stageOf(r) >= stageOf(best) ? r : best), last);
    const requester = asked ? nameOf(asked) : last.requester ? nameOf(last.requester) : "unknown";
    const verdict = [...g].reverse().find((r) => DECIDED[r.decision] !== undefined);
    const who = verdict?.decision === "approved" ? (verdict.approvedBy ?? [verdict.userId]).map(person) : [];
    const decidedBy = verdict
      ? `${DECIDED[verdict.decision]} ${who.length > 0 ? who.join(", ") : nameOf(verdict)}`
      : undefined;
    const sent = g.find((r) => r.sent)?.sent ?? [];
    return {
      at: Date.parse((asked ?? g[0] ?? last).at),
      command: last.command,
      requestedBy: requester,
      ...(decidedBy ? { decidedBy } : {}),
      ...(verdict?.decision === "approved" ? { approvedBy: who } : {}),
      lastAt: Date.parse(standing.at),
      sent,
      outcome: outcomeOf(standing, sent.length > 0),
    };
  });
}

/**
 * How far a request got. Clicks refused (a duplicate Approve that lost the race, someone not allowed) changed
 * nothing about it, however late they were written; every decision not named here ended it.
 */
const STAGE: Partial<Record<AuditRecord["decision"], number>> = {
  denied: -1,
  invalid: -1,
  dry_run: -1,
  pending: 0,
  approval_recorded: 1,
  executing: 2,
};
const stageOf = (r: AuditRecord): number => STAGE[r.decision] ?? 3;

function outcomeOf(r: AuditRecord, planned: boolean): string {
  const closed = CLOSED[r.decision];
  if (closed) return closed;
  if (r.decision === "pending" || r.decision === "approval_recorded")
    return "waiting for confirmation or approval; nothing sent yet";
  if (r.decision === "executing") return "being sent to the array";
  if (r.outcome === "ok") return "done";
  // Refused while planning (already destroyed, not found): nothing reached the array.
  return planned ? `failed: ${r.errorCode ?? "error"}` : `refused, nothing sent: ${r.errorCode ?? "error"}`;
}

const historyShow = defineCommand({
  verb: "show",
  summary:
    "Who changed an object through the bot: requester, approvers, time, requests sent, the array's answer",
  examples: ["history fs builds", "history bucket media-archive --array fb-dr-01"],
  role: "viewer",
  endpoints: [],
  args: z.object({
    noun: z.string().min(1).max(64),
    name: z.string().max(256).optional(),
  }),
  positional: ["noun", "name"],
  async run(args, ctx): Promise<HistoryResult> {
    const history = ctx.history;
    if (!history)
      throw new UserFacingError("HISTORY_UNAVAILABLE", "This bot keeps no history of changes here.");
    const kind = history.kind(args.noun);
    if (!kind)
      throw new UserFacingError(
        "HISTORY_NOUN_UNKNOWN",
        `\`${args.noun}\` is not something the bot changes; try a noun from \`/array help\`, e.g. \`/array history fs builds\`.`,
      );
    const object = { array: ctx.arrayName, kind, name: args.name ?? "" };
    return { ...object, changes: changesOf(await history.of(object)) };
  },
  render(res, _args, rctx) {
    const what = `${res.kind}${res.name ? ` ${res.name}` : ""}`;
    const headline = `${countOf(res.changes.length, "change")} to ${what} on ${res.array} through this bot`;
    if (res.changes.length === 0)
      return message(
        headline,
        [
          {
            type: "section",
            text: rich`No change to ${what} on ${res.array} through this bot is on record.`,
          },
          {
            type: "context",
            text: rich`Only changes made through the bot are kept (the last ones per object, for a limited time: \`audit_history\` in the configuration).`,
          },
        ],
        { object: historyObject(res, rctx) },
      );
    const blocks: Block[] = [{ type: "header", text: headline }];
    for (const c of [...res.changes].reverse()) {
      const who = c.decidedBy ? `${c.requestedBy} · ${c.decidedBy}` : c.requestedBy;
      blocks.push({
        type: "section",
        text: rich`*${formatWhen(c.at, rctx.now, rctx.timeZone)}* \`${commandPath(c.command)}\` requested by ${who} — ${c.outcome}`,
      });
      if (c.sent.length > 0) blocks.push({ type: "code", text: c.sent.join("\n") });
    }
    return message(headline, blocks, { object: historyObject(res, rctx) });
  },
});

/** The object's changes as values: each one's time (ISO 8601), command, people and outcome, newest first. */
function historyObject(res: HistoryResult, rctx: RenderContext): ShownObject {
  const newest = [...res.changes].reverse();
  const line = (c: Change, at: string) =>
    `${at} ${commandPath(c.command)} requested by ${c.requestedBy}${c.decidedBy ? `, ${c.decidedBy}` : ""}: ${c.outcome}`;
  const last = newest[0];
  const facts: Fact[] = [
    ["array", "Array", res.array, res.array],
    ["kind", "Kind", res.kind, res.kind],
    ["count", "Changes", res.changes.length, String(res.changes.length)],
    [
      "last_change",
      "Last change",
      isoTime(last?.at),
      last ? formatWhen(last.at, rctx.now, rctx.timeZone) : "–",
    ],
    [
      "changes",
      "Changes",
      newest.map((c) => line(c, new Date(c.at).toISOString())),
      newest.map((c) => line(c, formatWhen(c.at, rctx.now, rctx.timeZone))).join("\n"),
    ],
  ];
  return shownObject(res.name, facts);
}

export const historyResource = defineResource({
  name: "history",
  area: "Operations",
  summary: "The bot's record of who changed an object, when, and what was sent",
  defaultVerb: "show",
  argsAfterNoun: true,
  commands: [historyShow],
});
