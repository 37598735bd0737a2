/**
 * Array reachability: an array the bot cannot poll for longer than `unreachable_after` gets its own card in the
 * channels that take critical alerts for it; the card is resolved (updated, one thread line) when polling
 * works again. Shorter blips post nothing.
 */
import { joinKey } from "../store/keys.js";
import { actionLines } from "./lines.js";
import type { PlanContext } from "./planner.js";
import { NS, newCard, type ReachState, touchCard, type UnitOfWork } from "./repo.js";
import type { ArrayTarget, Card } from "./types.js";

export interface ReachOutcome {
  /** Reachability cards created by this step. */
  raised: number;
  /** Cards resolved by this step. */
  resolved: number;
}

export async function recordPollFailure(
  uow: UnitOfWork,
  ctx: PlanContext,
  target: ArrayTarget,
  reason: string,
): Promise<ReachOutcome> {
  const st: ReachState = (await uow.get<ReachState>(NS.reach, target.name)) ?? { cardIds: [] };
  const since = st.failingSince ?? ctx.now;
  const next: ReachState = { ...st, failingSince: since, reason };
  let raised = 0;
  if (st.cardIds.length === 0 && ctx.now - since >= ctx.cfg.unreachable_after) {
    const decision = ctx.router.route({
      array: target.name,
      tags: target.tags,
      severity: "critical",
      component: "array",
    });
    const ids: string[] = [];
    for (const routed of decision.channels) {
      const d = ctx.delivery.decide(routed, target.name, target.tags, "critical", ctx.now);
      const card = newCard({
        id: joinKey("r", d.channel, target.name, since),
        kind: "reachability",
        array: target.name,
        channel: d.channel,
        members: [],
        createdAt: ctx.now,
        outage: { since, reason },
      });
      if (d.holdUntil !== undefined) card.holdUntil = d.holdUntil;
      if (d.reason) card.holdReason = d.reason;
      uow.putCard(card, ctx.now);
      ids.push(card.id);
      raised += 1;
    }
    // An array no channel takes still counts as announced, so the check does not repeat every poll.
    next.cardIds = ids.length > 0 ? ids : ["(unrouted)"];
  } else if (st.reason !== reason) {
    for (const id of st.cardIds) {
      const card = await uow.card(id);
      if (!card?.outage || card.outage.until !== undefined) continue;
      card.outage = { ...card.outage, reason };
      touchCard(card);
      uow.putCard(card, ctx.now);
    }
  }
  uow.put(NS.reach, target.name, next);
  return { raised, resolved: 0 };
}

export async function recordPollSuccess(
  uow: UnitOfWork,
  ctx: PlanContext,
  target: ArrayTarget,
): Promise<ReachOutcome> {
  const st = await uow.get<ReachState>(NS.reach, target.name);
  if (!st || st.failingSince === undefined) return { raised: 0, resolved: 0 };
  let resolved = 0;
  for (const id of st.cardIds) {
    const card: Card | undefined = await uow.card(id);
    if (!card?.outage || card.outage.until !== undefined) continue;
    card.outage = { ...card.outage, until: ctx.now };
    touchCard(card, [actionLines.reachable(ctx.now - card.outage.since)]);
    uow.putCard(card, ctx.now);
    resolved += 1;
  }
  uow.delete(NS.reach, target.name);
  return { raised: 0, resolved };
}
