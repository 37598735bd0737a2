/**
 * Change control at the moment a change is asked for (issue 45), before its card is shown: the freeze window in
 * force over it (refused, unless someone allowed to break glass says why), and the approval rule it falls under
 * (with the reason and ticket the rule asks for). Every face reaches this through the one pipeline, so typed
 * commands, buttons, forms, workflow steps and assistants meet the same rules.
 */
import type { FreezeWindow } from "../../config/change-control.js";
import { UserFacingError } from "../../errors.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { activeFreeze, isMember, matchRule } from "../access/change-rules.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import type { CommandEntry } from "../catalogue/registry.js";
import type { Actor } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { formatWhen } from "../presentation/format-time.js";
import { commandPath } from "../words/command-path.js";

export interface ChangeControl {
  rule?: NonNullable<PendingRecord["rule"]>;
  /** The requester's reason (`--reason`, or the break-glass reason). */
  reason?: string;
  breakGlass?: { freeze: string; reason: string };
}

export interface ChangeAsk {
  entry: CommandEntry;
  cls: string | undefined;
  client: ArrayClient;
  actor: Actor;
  reason?: string | undefined;
  breakGlass?: string | undefined;
}

/** The person whose groups a rule matches on: a workflow step's vouched requester; an assistant has none. */
function personOf(actor: Actor): string | undefined {
  if (actor.kind === "workflow") return actor.onBehalfOf?.userId;
  if (actor.kind === "assistant") return undefined;
  return actor.userId;
}

export async function changeControlFor(rt: Runtime, ask: ChangeAsk): Promise<ChangeControl> {
  const cfg = rt.deps.config;
  const path = commandPath(ask.entry.id);
  const array = { name: ask.client.name, tags: ask.client.tags };
  const person = personOf(ask.actor);
  const groups = person ? await rt.deps.identity.groupsOf(person) : [];
  const out: ChangeControl = {};
  const freeze = activeFreeze(cfg.freeze ?? [], rt.deps.now(), array, ask.cls);
  if (ask.breakGlass !== undefined) {
    if (ask.actor.kind === "assistant" || ask.actor.kind === "workflow")
      throw new UserFacingError(
        "BREAK_GLASS_FORBIDDEN",
        "Only a person breaks glass, in Slack or at the console; an assistant or a workflow cannot. Nothing was changed.",
      );
    if (!freeze)
      throw new UserFacingError(
        "BREAK_GLASS_NOT_NEEDED",
        `No freeze covers \`${path}\` on ${array.name} now, so there is no glass to break; drop --break-glass (give --reason instead). Nothing was changed.`,
      );
  }
  if (freeze) {
    if (ask.breakGlass === undefined) throw frozen(freeze, path, array.name, rt);
    if (!person || !isMember(cfg.break_glass, person, groups))
      throw new UserFacingError(
        "BREAK_GLASS_FORBIDDEN",
        `Only the people break_glass names may run a change during the ${freeze.name} freeze; you are not one of them. Nothing was changed.`,
      );
    if (ask.breakGlass.trim().length < 4)
      throw new UserFacingError(
        "RULE_NEEDS_REASON",
        `--break-glass needs a reason, e.g. --break-glass "INC-4711 array full". Nothing was changed.`,
      );
    out.breakGlass = { freeze: freeze.name, reason: ask.breakGlass.trim() };
  }
  const reason = (ask.breakGlass ?? ask.reason)?.trim();
  if (reason) out.reason = reason;
  const matched = matchRule(cfg.approvals?.rules ?? [], { cls: ask.cls, path, array, groups });
  if (matched) {
    const { rule, label } = matched;
    const needsReason = rule.reason === "required" || rule.ticket !== undefined;
    const ticket = rule.ticket ? new RegExp(rule.ticket) : undefined;
    const want = ticket ? ` citing a ticket (${rule.ticket})` : "";
    if (needsReason && !reason)
      throw new UserFacingError(
        "RULE_NEEDS_REASON",
        `\`${path}\` on ${array.name} falls under the approval rule ${label}, which asks for a reason${want}: add --reason "…". Nothing was changed.`,
      );
    if (ticket && reason && !ticket.test(reason))
      throw new UserFacingError(
        "RULE_NEEDS_TICKET",
        `The approval rule ${label} asks the reason to cite a ticket matching ${rule.ticket}; yours does not. Nothing was changed.`,
      );
    out.rule = {
      label,
      approvals: rule.approvals,
      ...(rule.approvers ? { approvers: rule.approvers } : {}),
      ...(rule.veto ? { veto: rule.veto } : {}),
    };
  }
  return out;
}

function frozen(w: FreezeWindow, path: string, array: string, rt: Runtime): UserFacingError {
  const until = formatWhen(Date.parse(w.to), rt.deps.now(), rt.deps.config.time_zone);
  return new UserFacingError(
    "CHANGE_FROZEN",
    `\`${path}\` on ${array} is frozen: the ${w.name} freeze lasts until ${until}. Nothing was changed. Someone break_glass names can still run it with --break-glass "<ticket and why>".`,
  );
}

/** The audit record's change-control fields. */
export function controlFields(c: ChangeControl | undefined): {
  rule?: string;
  reason?: string;
  breakGlass?: { freeze: string; reason: string };
} {
  if (!c) return {};
  return {
    ...(c.rule ? { rule: c.rule.label } : {}),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.breakGlass ? { breakGlass: c.breakGlass } : {}),
  };
}
