/**
 * Messages of a gated request: the request card with its buttons, and what replaces it when it is decided
 * (carried out, vetoed, cancelled, expired, voided). Everything is rebuilt from the plain-JSON pending record,
 * so any replica can update a card.
 */
import { redact } from "../../redact.js";
import { dialect } from "../../rest-spec/dialect.js";
import { findOperation } from "../../rest-spec/operations.js";
import { describeMembers } from "../access/change-rules.js";
import type { PlannedRequest } from "../catalogue/define-command.js";
import { ACTIONS } from "../context/pipeline-deps.js";
import type { Effect, MessageRef } from "../context/pipeline-types.js";
import { formatWhen } from "../presentation/format-time.js";
import { type Block, type Button, type Message, message, Rich, rich } from "../presentation/message.js";
import { countOf } from "../words/units.js";
import type { PendingDisplay, PendingRecord } from "./pending-store.js";

const SLACK_USER = /^[UW][A-Z0-9]+$/;

/**
 * "alice through workflow step array_fs_create", "assistant ops-bot for @alice": who asked, with the principal it
 * came through and the person it is for. A person named in data is shown as a mention Slack resolves (the id was
 * checked when the request was made, and again here), never as text the data chose.
 */
export function requestedBy(rec: Pick<PendingRecord, "requester" | "via" | "onBehalfOf">): Rich {
  const via = rec.via ? rich` through ${who(rec.via).replace(/@U[A-Z0-9]+$/, "")}` : rich``;
  const id = rec.onBehalfOf?.userId;
  const forWhom = id !== undefined && SLACK_USER.test(id) ? rich` for ${new Rich(`<@${id}>`)}` : rich``;
  return rich`${who(rec.requester)}${via}${forWhom}`;
}

export function who(p: { userId: string; displayName?: string }): string {
  return p.displayName ?? p.userId;
}

/**
 * `PATCH /api/1.12/file-systems?name=fs1 {"provisioned":1099511627776}`: the request as the client sends it (path
 * and parameter names in the version's dialect: `PATCH /api/2.28/file-systems?names=fs1 …`), its query and body
 * through the one redaction (a proxy's password shows as `user:***@`).
 */
export function formatPlannedRequest(r: PlannedRequest, version: string): string {
  const op = findOperation(r.method, r.path);
  const d = dialect(version);
  const path = op ? d.path(op) : r.path;
  // What the client sends (connection.ts): the dialect's names, and a create's name where its generation puts it.
  const wire = op ? d.request(op, r.query ?? {}, r.body) : { query: r.query ?? {}, body: r.body };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(redact(wire.query))) q.set(k, String(v));
  const qs = q.toString();
  const body = wire.body === undefined ? "" : ` ${JSON.stringify(redact(wire.body))}`;
  const on = r.on === undefined ? "" : ` (on ${r.on})`;
  return `${r.method} /api/${version}${path}${qs ? `?${qs}` : ""}${on}${body}`;
}

function impactBlocks(d: PendingDisplay): Block[] {
  const blocks: Block[] = [{ type: "section", text: new Rich(d.summary) }];
  if (d.facts.length > 0) {
    blocks.push({
      type: "fields",
      fields: d.facts.map((f) => ({ label: f.label, value: new Rich(f.markup) })),
    });
  }
  for (const w of d.warnings) blocks.push({ type: "section", text: new Rich(`⚠ ${w}`) });
  if (d.requests.length > 0) blocks.push({ type: "code", text: d.requests.join("\n") });
  return blocks;
}

/** The card asking for a confirmation or approvals. */
export function requestCard(rec: PendingRecord, d: PendingDisplay, now: number, timeZone: string): Message {
  const approve = rec.policy === "approve";
  const blocks: Block[] = [
    { type: "header", text: approve ? `Approval needed: ${d.title}` : `Confirm: ${d.title}` },
    ...impactBlocks(d),
  ];
  const expires = formatWhen(rec.expiresAt, now, timeZone);
  blocks.push(...controlBlocks(rec));
  if (approve && rec.rule) {
    const got = rec.approvals.length ? `: ${rec.approvals.map(who).join(", ")}` : "";
    const from = rec.rule.approvers
      ? new Rich(describeMembers(rec.rule.approvers))
      : rich`anyone with the ${rec.approverRole} role`;
    blocks.push({
      type: "context",
      text: rich`Requested by ${requestedBy(rec)} on array ${rec.array}: \`/array ${rec.commandText}\`. Approval rule ${rec.rule.label}: needs ${rec.approvalsRequired} of ${from}, none of them the requester; ${rec.approvals.length} of ${rec.approvalsRequired} so far${got}. Expires ${expires}.`,
    });
  } else if (approve) {
    const got = rec.approvals.length ? rec.approvals.map(who).join(", ") : "none yet";
    blocks.push({
      type: "context",
      text: rich`Requested by ${requestedBy(rec)} on array ${rec.array}: \`/array ${rec.commandText}\`. Needs ${countOf(rec.approvalsRequired, "approval")} from someone else with the ${rec.approverRole} role (approved so far: ${got}). Expires ${expires}.`,
    });
  } else {
    blocks.push({
      type: "context",
      text: rec.approvalsAfterConfirm
        ? rich`Requested by ${requestedBy(rec)}: \`/array ${rec.commandText}\`. Only ${who(rec.requester)} can confirm; then it needs ${countOf(rec.approvalsAfterConfirm.approvalsRequired, "approval")} from someone else with the ${rec.approvalsAfterConfirm.approverRole} role. Expires ${expires}.`
        : rec.via
          ? rich`Requested by ${requestedBy(rec)}: \`/array ${rec.commandText}\`. Only ${who(rec.requester)} can confirm. Expires ${expires}.`
          : rich`Only ${who(rec.requester)} can confirm. Expires ${expires}.`,
    });
  }
  const typing = rec.typeToConfirm !== undefined && !rec.secrets?.length;
  if (rec.typeToConfirm !== undefined) {
    blocks.push({
      type: "context",
      text: rich`To ${approve ? "approve" : "confirm"}, type ${rec.typeToConfirm}${typing ? "" : " when asked"}.`,
    });
  }
  if (rec.secrets?.length) {
    const names = rec.secrets.map((f) => f.label.toLowerCase()).join(" and ");
    blocks.push({
      type: "context",
      text: rich`To confirm, type the ${names} in the private dialog the button opens, never in a message: chat keeps every line. It is used for this one request and kept nowhere.`,
    });
  }
  const confirmLabel = rec.secrets?.length ? "Enter secret…" : "Confirm";
  const buttons: Button[] = approve
    ? [
        { actionId: ACTIONS.approve, label: "Approve", value: rec.id, style: "danger" },
        { actionId: ACTIONS.deny, label: "Deny", value: rec.id },
      ]
    : [
        {
          actionId: ACTIONS.confirm,
          label: confirmLabel,
          value: rec.id,
          style: rec.secrets?.length && !rec.destructiveClass ? "primary" : "danger",
        },
        { actionId: ACTIONS.deny, label: "Cancel", value: rec.id },
      ];
  blocks.push({
    type: "actions",
    buttons,
    ...(typing
      ? {
          typed: {
            label: `Type ${rec.typeToConfirm} to ${approve ? "approve" : "confirm"}`,
            placeholder: rec.typeToConfirm ?? "",
          },
        }
      : {}),
  });
  const text = approve ? `Approval needed: ${d.title}` : `Confirm: ${d.title}`;
  return message(text, blocks, { visibility: approve ? "in_channel" : "ephemeral" });
}

/** What change control adds to a card: the reason (with its ticket) and a freeze broken through. */
function controlBlocks(rec: PendingRecord): Block[] {
  const out: Block[] = [];
  if (rec.breakGlass)
    out.push({
      type: "section",
      text: rich`🚨 *Break-glass* through the ${rec.breakGlass.freeze} freeze. An admin reviews it afterwards (\`/array audit break-glass\`).`,
    });
  if (rec.reason) out.push({ type: "context", text: rich`Reason: ${rec.reason}` });
  return out;
}

/** The card once the request ended without running. */
export function closedCard(
  rec: PendingRecord,
  d: PendingDisplay,
  headline: Rich,
  details: string[] = [],
): Message {
  const blocks: Block[] = [
    { type: "header", text: d.title },
    { type: "section", text: headline },
    ...details.map((line): Block => ({ type: "section", text: rich`• ${line}` })),
    {
      type: "context",
      text: rich`Requested by ${requestedBy(rec)} on array ${rec.array}: \`/array ${rec.commandText}\`.`,
    },
  ];
  return message(`${d.title}: ${headline.markup}`, blocks, {
    visibility: rec.policy === "approve" ? "in_channel" : "ephemeral",
  });
}

/** What a private confirmation prompt becomes once the change ran and its result went to the channel. */
export function doneLine(rec: PendingRecord): Message {
  const text = rich`Done: ${rec.display.title}. The result is posted in the channel.`;
  return message(`Done: ${rec.display.title}`, [{ type: "section", text }], { visibility: "ephemeral" });
}

/** The result message with a line saying who let it through, above any buttons it offers. */
export function withDecisionLine(result: Message, rec: PendingRecord): Message {
  const line: Block = {
    type: "context",
    text:
      rec.policy === "approve"
        ? rich`Requested by ${requestedBy(rec)}, approved by ${rec.approvals.map(who).join(", ")}.`
        : rich`Confirmed by ${who(rec.requester)}.`,
  };
  const at = result.blocks.findIndex((b) => b.type === "actions");
  const blocks =
    at === -1 ? [...result.blocks, line] : [...result.blocks.slice(0, at), line, ...result.blocks.slice(at)];
  return { ...result, blocks };
}

/** Updates every known copy of the card; with none known, replies instead. */
export function cardEffects(rec: PendingRecord, clickRef: MessageRef | undefined, msg: Message): Effect[] {
  const refs = [...rec.messages];
  if (clickRef && !refs.some((r) => r.channelId === clickRef.channelId && r.ts === clickRef.ts))
    refs.push(clickRef);
  if (refs.length === 0) return [{ kind: "reply", message: msg }];
  return refs.map((ref) => ({ kind: "update", ref, message: msg }));
}
