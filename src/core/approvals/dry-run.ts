/** The answer to `--dry-run`: the impact and the exact requests, and a promise that nothing changed. */
import type { GatePolicy } from "../../config/schema.js";
import type { ArrayClient } from "../../flashblade/types.js";
import type { DestructiveClass, Impact } from "../catalogue/define-command.js";
import type { CommandEntry } from "../catalogue/registry.js";
import type { SecretField } from "../context/pipeline-types.js";
import { type Block, type Message, message, rich } from "../presentation/message.js";
import { countOf } from "../words/units.js";
import { formatPlannedRequest } from "./gate-messages.js";

function gateLine(gate: { cls: DestructiveClass; policy: GatePolicy } | undefined): string {
  if (!gate) return "It would run straight away.";
  const cls = gate.cls.replace(/_/g, " ");
  const a = /^[aeiou]/.test(cls) ? "an" : "a";
  switch (gate.policy.policy) {
    case "deny":
      return `It would be refused: ${cls} actions are turned off.`;
    case "confirm":
      return `It is ${a} ${cls} action: you would be asked to confirm first.`;
    case "approve":
      return `It is ${a} ${cls} action: it would need ${countOf(gate.policy.approvers, "approval")} from someone else with the ${gate.policy.approver_role} role.`;
  }
}

export async function dryRunMessage(
  entry: CommandEntry,
  impact: Impact,
  client: ArrayClient,
  gate: { cls: DestructiveClass; policy: GatePolicy } | undefined,
  secrets: readonly SecretField[] = [],
): Promise<Message> {
  const version = await client.version();
  const title = `Dry run: ${entry.command.verb} ${impact.target} on ${client.name}`;
  const blocks: Block[] = [
    { type: "header", text: title },
    { type: "section", text: impact.summary },
  ];
  if (impact.facts.length > 0) blocks.push({ type: "fields", fields: impact.facts });
  for (const w of impact.warnings) blocks.push({ type: "section", text: rich`⚠ ${w}` });
  const requests = impact.requests.map((r) => formatPlannedRequest(r, version));
  blocks.push({ type: "section", text: rich`Requests that would be sent:` });
  blocks.push({
    type: "code",
    text: requests.length > 0 ? requests.join("\n") : "(none: nothing to change)",
  });
  const line = secrets.length
    ? `${gate ? `${gateLine(gate)} ` : ""}You would be asked for the ${secrets.map((f) => f.label.toLowerCase()).join(" and ")} in a private dialog, then it would run.`
    : gateLine(gate);
  blocks.push({ type: "context", text: rich`${line} Nothing was changed (dry run).` });
  return message(title, blocks, { visibility: "ephemeral" });
}
