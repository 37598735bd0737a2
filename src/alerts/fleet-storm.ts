/**
 * Alert storms across many arrays collapse as they do on one. A single array's storm (more than storm_threshold
 * alerts in one poll) is one summary card; the same alert firing on many arrays at once (a fleet-wide firmware
 * bug, a shared network or a directory service going away) used to be one card per array. Here alerts of one
 * fleet family (the same code on the same kind of component, whatever the array) opened on more than
 * fleet_storm_arrays arrays within one poll interval become one fleet summary card per channel: the arrays listed
 * worst first, updated as more arrive, later changes in its thread. Cards of the first arrivals that Slack does
 * not show yet are folded into it (as a storm's members never get cards of their own); those already posted stay.
 *
 * The decision runs inside the poll's unit of work, under the engine's lock (shared in the store with replicas),
 * so two replicas polling different arrays cannot both open a fleet card: the second sees the first's state.
 * The card's id is fixed by channel, family and the time it opened, and it is posted by whoever polls the array
 * that opened it, like any other card.
 */
import { joinKey } from "../store/keys.js";
import { alertKey, familyKey } from "./alert-model.js";
import type { PlanContext } from "./planner.js";
import { familyStateKey, NS, newCard, touchCard, type UnitOfWork } from "./repo.js";
import type { AlertRecord, Card } from "./types.js";

/** Per channel and fleet family: the recent arrivals and the fleet card, if one is open. */
export interface FleetState {
  /** Opened alerts not on a fleet card yet, within the last poll interval (bot time). */
  arrivals: { key: string; array: string; cardId?: string; at: number }[];
  cardId?: string;
  lastActivity: number;
}

/** The same kind of component on every array: "CH1.FB5" and "CH2.FB12" are both "CH#.FB#". */
export function componentKind(component: string): string {
  return component.replace(/\d+/g, "#");
}

export function fleetFamily(a: Pick<AlertRecord, "code" | "component">): string {
  return joinKey("fleet", String(a.code), componentKind(a.component));
}

/** The line a fleet card's thread gets for one of its members. */
export function fleetPrefix(rec: AlertRecord): string {
  return `${rec.array}: alert ${rec.index}: `;
}

/**
 * Places a newly opened alert on its channel's fleet card when one is open for its family, or opens one when
 * this arrival makes more than fleet_storm_arrays arrays; true when the alert went to a fleet card (the caller
 * gives it no card of its own). Otherwise records the arrival and returns false; `ownCard` later tells which
 * card the alert got.
 */
export async function joinFleetStorm(
  uow: UnitOfWork,
  ctx: PlanContext,
  rec: AlertRecord,
  channel: string,
): Promise<{ joined: boolean; ownCard: (cardId: string) => void }> {
  const fam = fleetFamily(rec);
  const key = joinKey(channel, fam);
  const window = ctx.cfg.poll_interval;
  const now = ctx.now;
  const prior = await uow.get<FleetState>(NS.fleet, key);
  const state: FleetState = {
    arrivals: (prior?.arrivals ?? []).filter((a) => now - a.at <= window),
    lastActivity: prior?.lastActivity ?? now,
    ...(prior?.cardId ? { cardId: prior.cardId } : {}),
  };
  const memberKey = alertKey(rec.array, rec.name);
  const live = state.cardId ? await uow.card(state.cardId) : undefined;
  // A fleet card stays the home while its storm goes on: an arrival within a poll interval of the last one.
  if (live && !live.dropped && !live.failed && now - state.lastActivity <= window) {
    live.members = [...live.members.filter((k) => k !== memberKey), memberKey];
    touchCard(live, [`${fleetPrefix(rec)}opened (${rec.severity}).`]);
    uow.putCard(live, now);
    rec.cardIds = [...rec.cardIds, live.id];
    uow.putAlert(memberKey, rec);
    setHome(uow, channel, rec, live.id);
    uow.put(NS.fleet, key, { ...state, lastActivity: now } satisfies FleetState, now + window);
    return { joined: true, ownCard: () => {} };
  }
  const arrival: FleetState["arrivals"][number] = { key: memberKey, array: rec.array, at: now };
  state.arrivals = [...state.arrivals.filter((a) => a.key !== memberKey), arrival];
  const arrays = new Set(state.arrivals.map((a) => a.array));
  if (arrays.size <= ctx.cfg.fleet_storm_arrays) {
    delete state.cardId;
    state.lastActivity = now;
    // Past a poll interval with no arrival the record means nothing: it expires instead of lingering.
    uow.put(NS.fleet, key, state, now + window);
    return {
      joined: false,
      // The arrival object is the one the unit of work holds (it commits after the cards are made).
      ownCard: (cardId) => {
        arrival.cardId = cardId;
      },
    };
  }
  const card = await openFleetCard(uow, ctx, channel, fam, state.arrivals, rec);
  uow.put(
    NS.fleet,
    key,
    { arrivals: [], cardId: card.id, lastActivity: now } satisfies FleetState,
    now + window,
  );
  return { joined: true, ownCard: () => {} };
}

/** The fleet card for `arrivals` (the last of them `rec`, which has no card yet). */
async function openFleetCard(
  uow: UnitOfWork,
  ctx: PlanContext,
  channel: string,
  fam: string,
  arrivals: FleetState["arrivals"],
  rec: AlertRecord,
): Promise<Card> {
  const card = newCard({
    id: joinKey("f", channel, rec.array, fam, ctx.now),
    kind: "summary",
    array: rec.array,
    channel,
    fleet: fam,
    members: arrivals.map((a) => a.key),
    createdAt: ctx.now,
  });
  for (const a of arrivals) {
    const r = a.key === alertKey(rec.array, rec.name) ? rec : await uow.alert(a.key);
    if (!r) continue;
    // An earlier arrival's own card that Slack does not show yet is folded in: it would only repeat this one.
    const own = a.cardId ? await uow.card(a.cardId) : undefined;
    if (own && !own.ref && !own.dropped && own.members.length === 1) {
      own.dropped = true;
      uow.putCard(own, ctx.now);
      r.cardIds = r.cardIds.filter((id) => id !== own.id);
    }
    r.cardIds = [...r.cardIds, card.id];
    uow.putAlert(a.key, r);
    setHome(uow, channel, r, card.id);
  }
  uow.putCard(card, ctx.now);
  return card;
}

/** The alert's own family (on its array) now lives on the fleet card: its reopenings join it there. */
function setHome(uow: UnitOfWork, channel: string, rec: AlertRecord, cardId: string): void {
  uow.put(NS.family, familyStateKey(channel, familyKey(rec.array, rec)), {
    cardId,
    open: [alertKey(rec.array, rec.name)],
    lastActivity: rec.created,
  });
}
