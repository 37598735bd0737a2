/**
 * Buttons on alert messages. The Slack layer hands every click whose action id starts with "alert." to
 * `handleAlertClick` and carries out the returned effects, exactly as for the command pipeline. Every click is
 * authorised here against the array the card belongs to; button values are card ids we generated, and are
 * checked as untrusted anyway.
 */

import type { ClickInput, Effect } from "../core/context/pipeline-types.js";
import { rich } from "../core/presentation/message.js";
import { isUserFacing } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/types.js";
import { alertKey, familyKey, isClosed } from "./alert-model.js";
import { formatTime, formatWindow } from "./format.js";
import { actionLines } from "./lines.js";
import type { Mutex } from "./mutex.js";
import type { Notifier } from "./notifier.js";
import { ACTION, FOLLOW_UPS, type FollowUpName } from "./render.js";
import { familyStateKey, NS, type Snooze, touchCard, UnitOfWork } from "./repo.js";
import type { AlertAuthorizer, AlertRecord, AlertSource, Card, Clock, FollowUpRunner } from "./types.js";

export interface ActionDeps {
  store: Store;
  source: AlertSource;
  lock: Mutex;
  clock: Clock;
  notifier: Notifier;
  authorizer: AlertAuthorizer;
  followUps?: FollowUpRunner;
  snoozePresets: readonly number[];
  timeZone: string;
  logger: Logger;
}

const reply = (text: string): Effect[] => [
  { kind: "reply", message: { text, blocks: [{ type: "section", text: rich`${text}` }] } },
];

export function isAlertAction(actionId: string): boolean {
  return actionId.startsWith("alert.");
}

function who(input: ClickInput): string {
  return input.actor.displayName ?? input.actor.userId;
}

export async function handleAlertClick(deps: ActionDeps, input: ClickInput): Promise<Effect[]> {
  switch (input.actionId) {
    case ACTION.flag:
    case ACTION.unflag:
      return flag(deps, input, input.actionId === ACTION.flag);
    case ACTION.snooze:
      return snooze(deps, input);
    case ACTION.followUp:
      return followUp(deps, input);
    default:
      return reply("That button is not one this bot knows. It may come from an older version of the bot.");
  }
}

async function loadCard(deps: ActionDeps, id: string): Promise<Card | undefined> {
  return id ? deps.store.get<Card>(NS.card, id) : undefined;
}

const GONE =
  "This alert message is no longer tracked by the bot (it may have been cleaned up); use `/array alert list`.";

async function flag(deps: ActionDeps, input: ClickInput, flagged: boolean): Promise<Effect[]> {
  const card = await loadCard(deps, input.value);
  if (card?.kind !== "alert") return reply(GONE);
  if (!(await deps.authorizer.allowed(input.actor, card.array, "operator"))) {
    return reply(`Flagging alerts on ${card.array} needs the operator role.`);
  }
  const members = await deps.store.getMany<AlertRecord>(NS.alert, card.members);
  const latest = [...members.values()].reverse();
  const target = latest.find((m) => !isClosed(m)) ?? latest[0];
  if (!target) return reply(GONE);
  try {
    await deps.source.setFlagged(card.array, target.name, flagged);
  } catch (err) {
    deps.logger.warn({ err, array: card.array, alert: target.name }, "flag from an alert button failed");
    return reply(
      isUserFacing(err)
        ? err.message
        : `Could not ${flagged ? "flag" : "unflag"} the alert on ${card.array}.`,
    );
  }
  await deps.lock.run(async () => {
    const uow = new UnitOfWork(deps.store);
    const key = alertKey(card.array, target.name);
    const rec = await uow.alert(key);
    if (!rec) return;
    rec.flagged = flagged;
    uow.putAlert(key, rec);
    for (const id of rec.cardIds) {
      const c = await uow.card(id);
      if (!c) continue;
      touchCard(c, [actionLines.flagged(who(input), flagged)]);
      uow.putCard(c, deps.clock.now());
    }
    await uow.commit();
  });
  deps.notifier.kick();
  return reply(`${flagged ? "Flagged" : "Unflagged"} alert ${target.index} on ${card.array}.`);
}

async function snooze(deps: ActionDeps, input: ClickInput): Promise<Effect[]> {
  const sep = input.value.indexOf(":");
  const ms = Number(input.value.slice(0, sep));
  const card = await loadCard(deps, input.value.slice(sep + 1));
  if (sep < 0 || !deps.snoozePresets.includes(ms))
    return reply("That snooze duration is not one of the configured presets.");
  if (!card || card.kind === "reachability") return reply(GONE);
  if (!(await deps.authorizer.allowed(input.actor, card.array, "operator"))) {
    return reply(`Snoozing alerts on ${card.array} needs the operator role.`);
  }
  const now = deps.clock.now();
  const until = now + ms;
  const untilText = formatTime(until, deps.timeZone);
  await deps.lock.run(async () => {
    const uow = new UnitOfWork(deps.store);
    const c = await uow.card(card.id);
    if (!c) return;
    const members = await uow.getMany<AlertRecord>(NS.alert, c.members);
    const families = c.family
      ? [c.family]
      : [...new Set([...members.values()].map((m) => familyKey(m.array, m)))];
    for (const f of families) {
      uow.put(
        NS.snooze,
        familyStateKey(c.channel, f),
        { until, by: input.actor.userId } satisfies Snooze,
        until,
      );
    }
    touchCard(c, [actionLines.snoozed(who(input), untilText)]);
    uow.putCard(c, now);
    await uow.commit();
  });
  deps.notifier.kick();
  return reply(
    `Snoozed for ${formatWindow(ms, true)} (until ${untilText}): reopenings update the message without posting again.`,
  );
}

async function followUp(deps: ActionDeps, input: ClickInput): Promise<Effect[]> {
  const sep = input.value.indexOf(":");
  const name = input.value.slice(0, sep) as FollowUpName;
  const card = await loadCard(deps, input.value.slice(sep + 1));
  // The value comes back from the client: a prototype member ("constructor") is not a follow-up.
  const f = sep > 0 && Object.hasOwn(FOLLOW_UPS, name) ? FOLLOW_UPS[name] : undefined;
  if (!f) return reply("That follow-up is not one this bot knows.");
  if (!card) return reply(GONE);
  const command = f.command(card.array);
  if (!deps.followUps) return reply(`Run \`/array ${command}\` to see this.`);
  // The pipeline checks the role and channel rules for the command, exactly as if it had been typed.
  return deps.followUps.run(command, input.actor);
}
