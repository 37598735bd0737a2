/**
 * Posts one line per audited request to the configured audit channel. Lines name people by display name or
 * id as plain text: an audit trail must never ping anyone.
 */
import type { AuditRecord, AuditSink } from "../core/audit.js";
import { Rich, rich } from "../core/message.js";
import type { Logger } from "../logger.js";
import type { ChatPort } from "./chat-port.js";

export function auditLine(r: AuditRecord): Rich {
  const who = r.displayName ?? r.userId;
  const where = /^[CG][A-Z0-9]+$/.test(r.channelId) ? new Rich(` in <#${r.channelId}>`) : new Rich("");
  const arrays = r.arrays.length > 0 ? rich` on ${r.arrays.join(", ")}` : new Rich("");
  const approved = r.approvedBy?.length ? rich`, approved by ${r.approvedBy.join(", ")}` : new Rich("");
  const error = r.errorCode ? rich` (${r.errorCode})` : new Rich("");
  return rich`\`${r.command}\` ${r.decision} for ${who}${where}${arrays}${approved}: ${r.outcome}${error}`;
}

export function createAuditChannelSink(deps: {
  channelId: string;
  chat: ChatPort;
  logger: Logger;
}): AuditSink {
  return {
    async write(r) {
      const line = auditLine(r);
      try {
        await deps.chat.post(deps.channelId, {
          text: `${r.command} ${r.decision}: ${r.outcome}`,
          blocks: [{ type: "context", text: line }],
        });
      } catch (err) {
        deps.logger.warn({ err, channel: deps.channelId }, "could not post to the audit channel");
      }
    },
  };
}
