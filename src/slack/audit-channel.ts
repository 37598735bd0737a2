/**
 * Posts one line per audited request to the configured audit channel. Lines name people by display name or
 * id as plain text: an audit trail must never ping anyone.
 *
 * A request never waits for its line: Slack takes about one message a second in a channel, and the pipeline
 * awaits the audit before it answers, so a busy minute would have queued every answer behind the channel.
 * Lines wait here instead and go out in order, up to AUDIT_LINES_PER_POST in one message, while one post is in
 * flight. The wait is bounded: past AUDIT_BACKLOG lines the oldest are dropped and the next message says how
 * many; the log keeps every record (createAuditor writes it first), and `/array history` the changes.
 */
import type { AuditRecord, AuditSink } from "../core/audit/audit.js";
import { Rich, rich } from "../core/presentation/message.js";
import type { Logger } from "../logger.js";
import type { ChatPort } from "./chat-port.js";

/** Lines in one message, one context block each (Slack allows 50 blocks). */
export const AUDIT_LINES_PER_POST = 20;
/** Lines that may wait for the channel; older ones beyond it are dropped and counted. */
export const AUDIT_BACKLOG = 1_000;

export function auditLine(r: AuditRecord): Rich {
  const who = r.displayName ?? r.userId;
  const where = /^[CG][A-Z0-9]+$/.test(r.channelId) ? new Rich(` in <#${r.channelId}>`) : new Rich("");
  const arrays = r.arrays.length > 0 ? rich` on ${r.arrays.join(", ")}` : new Rich("");
  const approved = r.approvedBy?.length ? rich`, approved by ${r.approvedBy.join(", ")}` : new Rich("");
  const error = r.errorCode ? rich` (${r.errorCode})` : new Rich("");
  // The record's place in the audit chain, so a line can be matched with the exported record it stands for.
  const seq = r.seq === undefined ? new Rich("") : rich` · seq ${String(r.seq)}`;
  return rich`\`${r.command}\` ${r.decision} for ${who}${where}${arrays}${approved}: ${r.outcome}${error}${seq}`;
}

export interface AuditChannelSink extends AuditSink {
  /** Resolves once every line written so far has been posted (or failed to be). */
  flush(): Promise<void>;
}

export function createAuditChannelSink(deps: {
  channelId: string;
  chat: ChatPort;
  logger: Logger;
}): AuditChannelSink {
  const waiting: { line: Rich; text: string }[] = [];
  let dropped = 0;
  let posting: Promise<void> | undefined;

  const postWaiting = async () => {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, AUDIT_LINES_PER_POST);
      const skipped = dropped;
      dropped = 0;
      const notice =
        skipped === 0
          ? []
          : [
              {
                type: "context" as const,
                text: rich`… ${String(skipped)} earlier audit lines were not posted: requests came faster than Slack lets one channel take. The bot's log keeps every record.`,
              },
            ];
      try {
        await deps.chat.post(deps.channelId, {
          text: batch.map((b) => b.text).join("\n"),
          blocks: [...notice, ...batch.map((b) => ({ type: "context" as const, text: b.line }))],
        });
      } catch (err) {
        deps.logger.warn({ err, channel: deps.channelId }, "could not post to the audit channel");
      }
    }
  };

  const start = () => {
    posting = postWaiting().finally(() => {
      posting = undefined;
      // A line written between the last post and this (in a microtask) still goes out.
      if (waiting.length > 0) start();
    });
  };

  return {
    write(r) {
      const seq = r.seq === undefined ? "" : ` · seq ${r.seq}`;
      waiting.push({ line: auditLine(r), text: `${r.command} ${r.decision}: ${r.outcome}${seq}` });
      if (waiting.length > AUDIT_BACKLOG) dropped += waiting.splice(0, waiting.length - AUDIT_BACKLOG).length;
      if (posting === undefined) start();
    },
    async flush() {
      while (posting !== undefined) await posting;
    },
  };
}
