/**
 * What one poll of one array means for the channels: records every alert's new state, decides which alerts get
 * a new card, which reopen an existing one (flap collapse), which become a storm summary, and which cards get
 * an update and a thread line. Pure decisions over the unit of work; the notifier does the posting.
 */
import type { AlertsConfig } from "../config/alerts.js";
import { joinKey } from "../store/keys.js";
import { alertKey, familyKey, isClosed } from "./alert-model.js";
import type { Delivery, DeliveryPolicy } from "./delivery.js";
import { type AlertChange, diffAlert } from "./diff.js";
import { fleetPrefix, joinFleetStorm } from "./fleet-storm.js";
import { changeLine, memberPrefix, reopenLine } from "./lines.js";
import {
  type FamilyState,
  familyStateKey,
  NS,
  newCard,
  type Snooze,
  touchCard,
  type UnitOfWork,
} from "./repo.js";
import type { Router } from "./router.js";
import type { AlertRecord, AlertSnapshot, ArrayTarget, Card } from "./types.js";

/** Cards keep at most this many members; the oldest closed ones drop off the list. */
const MAX_MEMBERS = 100;

export interface PlanContext {
  cfg: AlertsConfig;
  router: Router;
  delivery: DeliveryPolicy;
  now: number;
  /** Holds a card for the array's own maintenance window in force (array-maintenance.ts); absent: none. */
  hold?: (rec: AlertRecord, d: Delivery) => Delivery;
}

export interface PollOutcome {
  /** Alerts first seen open. */
  opened: number;
  /** Opened alerts that joined their family's existing card instead of a new message. */
  collapsed: number;
  /** New alert cards (one message each). */
  cards: number;
  /** Storm summaries created. */
  summaries: number;
  /** Alerts listed in those summaries. */
  summarised: number;
  /** Cards changed by updates to alerts they show. */
  updates: number;
  /** Alerts first seen already closed (recorded, never posted). */
  seenClosed: number;
  /** Opened alerts no route sends anywhere. */
  unrouted: number;
}

export const emptyOutcome = (): PollOutcome => ({
  opened: 0,
  collapsed: 0,
  cards: 0,
  summaries: 0,
  summarised: 0,
  updates: 0,
  seenClosed: 0,
  unrouted: 0,
});

interface NewHome {
  fsKey: string;
  family: string;
  recs: AlertRecord[];
  /** Told the id of the card the alerts got (a fleet storm may fold it in later). */
  owned: ((cardId: string) => void)[];
  holdUntil?: number;
  reason?: "quiet hours" | "maintenance";
}

export async function planPoll(
  uow: UnitOfWork,
  ctx: PlanContext,
  target: ArrayTarget,
  snapshots: readonly AlertSnapshot[],
): Promise<PollOutcome> {
  const out = emptyOutcome();
  const array = target.name;
  const ordered = [...snapshots].sort((a, b) => a.created - b.created || a.index - b.index);
  const prev = await uow.getMany<AlertRecord>(
    NS.alert,
    ordered.map((s) => alertKey(array, s.name)),
  );
  /** Alerts to place in channels: newly opened ones, and escalated ones in channels that did not have them. */
  const placements: { rec: AlertRecord; skip: Set<string> }[] = [];

  for (const s of ordered) {
    const key = alertKey(array, s.name);
    const p = prev.get(key);
    const changes = diffAlert(p, s);
    if (changes.length === 0) continue;
    const rec: AlertRecord = {
      ...s,
      array,
      firstSeenAt: p?.firstSeenAt ?? ctx.now,
      cardIds: p?.cardIds ?? [],
    };
    uow.putAlert(key, rec);
    const first = changes[0];
    if (first?.kind === "opened") {
      out.opened += 1;
      placements.push({ rec, skip: new Set() });
    } else if (first?.kind === "seen-closed") {
      out.seenClosed += 1;
    } else {
      out.updates += await applyChanges(uow, ctx, rec, changes);
      // An escalation can make more routes match (warning → critical reaches the on-call channel).
      if (!isClosed(rec) && changes.some((c) => c.kind === "severity")) {
        const cards = await uow.getMany<Card>(NS.card, rec.cardIds);
        placements.push({ rec, skip: new Set([...cards.values()].map((c) => c.channel)) });
      }
    }
  }

  const homes = new Map<string, Map<string, NewHome>>();
  for (const { rec, skip } of placements) {
    const decision = ctx.router.route({
      array,
      tags: target.tags,
      severity: rec.severity,
      code: rec.code,
      component: rec.component,
    });
    if (decision.channels.length === 0 && skip.size === 0) out.unrouted += 1;
    for (const routed of decision.channels) {
      if (skip.has(routed)) continue;
      const decided = ctx.delivery.decide(routed, array, target.tags, rec.severity, ctx.now);
      const d = ctx.hold ? ctx.hold(rec, decided) : decided;
      if (await joinFamilyCard(uow, ctx, rec, d.channel)) {
        out.collapsed += 1;
        continue;
      }
      // The same alert on many arrays at once: one fleet card instead of one card per array.
      const fleet = await joinFleetStorm(uow, ctx, rec, d.channel);
      if (fleet.joined) {
        out.collapsed += 1;
        continue;
      }
      const family = familyKey(array, rec);
      const fsKey = familyStateKey(d.channel, family);
      let byFamily = homes.get(d.channel);
      if (!byFamily) {
        byFamily = new Map();
        homes.set(d.channel, byFamily);
      }
      const home = byFamily.get(fsKey);
      if (home) {
        home.recs.push(rec);
        home.owned.push(fleet.ownCard);
        continue;
      }
      const h: NewHome = { fsKey, family, recs: [rec], owned: [fleet.ownCard] };
      if (d.holdUntil !== undefined) h.holdUntil = d.holdUntil;
      if (d.reason) h.reason = d.reason;
      byFamily.set(fsKey, h);
    }
  }

  for (const [channel, byFamily] of homes) {
    const list = [...byFamily.values()];
    const count = list.reduce((n, h) => n + h.recs.length, 0);
    if (count > ctx.cfg.storm_threshold) {
      const id = createSummary(uow, ctx, array, channel, list);
      for (const h of list) for (const own of h.owned) own(id);
      out.summaries += 1;
      out.summarised += count;
    } else {
      for (const h of list) {
        const id = createAlertCard(uow, ctx, array, channel, h);
        if (id !== undefined) for (const own of h.owned) own(id);
      }
      out.cards += list.length;
    }
  }
  return out;
}

async function snoozedIn(uow: UnitOfWork, channel: string, family: string, now: number): Promise<boolean> {
  const s = await uow.get<Snooze>(NS.snooze, familyStateKey(channel, family));
  return s !== undefined && s.until > now;
}

/** Updates every card showing `rec`; returns how many cards changed. */
async function applyChanges(
  uow: UnitOfWork,
  ctx: PlanContext,
  rec: AlertRecord,
  changes: readonly AlertChange[],
): Promise<number> {
  const family = familyKey(rec.array, rec);
  let touched = 0;
  for (const id of rec.cardIds) {
    const card = await uow.card(id);
    if (!card || card.dropped || card.failed) continue;
    const fsKey = familyStateKey(card.channel, family);
    const fs = await uow.get<FamilyState>(NS.family, fsKey);
    if (fs && fs.cardId === card.id) {
      const key = alertKey(rec.array, rec.name);
      const open = fs.open.filter((k) => k !== key);
      if (!isClosed(rec)) open.push(key);
      uow.put(NS.family, fsKey, { ...fs, open, lastActivity: Math.max(fs.lastActivity, rec.updated) });
    }
    const prefix = card.fleet ? fleetPrefix(rec) : card.kind === "summary" ? memberPrefix(rec) : "";
    const quiet = await snoozedIn(uow, card.channel, family, ctx.now);
    const lines = quiet
      ? []
      : changes.map((c) => changeLine(c, rec, prefix)).filter((l): l is string => l !== undefined);
    touchCard(card, lines);
    uow.putCard(card, ctx.now);
    touched += 1;
  }
  return touched;
}

/**
 * A newly opened alert joins its family's card in `channel` when that card is still its home: a member is
 * still open, the family is snoozed there, or the last activity is inside the flap window.
 */
async function joinFamilyCard(
  uow: UnitOfWork,
  ctx: PlanContext,
  rec: AlertRecord,
  channel: string,
): Promise<boolean> {
  const family = familyKey(rec.array, rec);
  const fsKey = familyStateKey(channel, family);
  const fs = await uow.get<FamilyState>(NS.family, fsKey);
  if (!fs) return false;
  const card = await uow.card(fs.cardId);
  if (!card || card.dropped || card.failed) return false;
  const window = ctx.cfg.flap.window;
  const snoozed = await snoozedIn(uow, channel, family, ctx.now);
  if (!snoozed && fs.open.length === 0 && rec.created - fs.lastActivity > window) return false;

  const key = alertKey(rec.array, rec.name);
  card.members = [...card.members.filter((k) => k !== key), key].slice(-MAX_MEMBERS);
  card.reopenings = [...card.reopenings.filter((t) => rec.created - t <= window), rec.created];
  const n = card.reopenings.length;
  const line = snoozed
    ? []
    : [
        (card.fleet ? fleetPrefix(rec) : card.kind === "summary" ? memberPrefix(rec) : "") +
          reopenLine(rec, n, window, n >= ctx.cfg.flap.reopenings),
      ];
  touchCard(card, line);
  uow.putCard(card, ctx.now);
  uow.put(NS.family, fsKey, {
    cardId: card.id,
    open: [...fs.open.filter((k) => k !== key), key],
    lastActivity: Math.max(fs.lastActivity, rec.created),
  } satisfies FamilyState);
  rec.cardIds = [...rec.cardIds, card.id];
  uow.putAlert(key, rec);
  return true;
}

function setHome(uow: UnitOfWork, fsKey: string, cardId: string, recs: readonly AlertRecord[]): void {
  uow.put(NS.family, fsKey, {
    cardId,
    open: recs.map((r) => alertKey(r.array, r.name)),
    lastActivity: Math.max(...recs.map((r) => r.created)),
  } satisfies FamilyState);
}

function attach(uow: UnitOfWork, card: Card, recs: readonly AlertRecord[]): void {
  for (const r of recs) {
    r.cardIds = [...r.cardIds, card.id];
    uow.putAlert(alertKey(r.array, r.name), r);
  }
}

function createAlertCard(
  uow: UnitOfWork,
  ctx: PlanContext,
  array: string,
  channel: string,
  h: NewHome,
): string | undefined {
  const first = h.recs[0];
  if (!first) return undefined;
  const card = newCard({
    id: joinKey("a", channel, array, first.name),
    kind: "alert",
    array,
    channel,
    family: h.family,
    members: h.recs.map((r) => alertKey(r.array, r.name)),
    createdAt: ctx.now,
    reopenings: h.recs.slice(1).map((r) => r.created),
  });
  if (h.holdUntil !== undefined) card.holdUntil = h.holdUntil;
  if (h.reason) card.holdReason = h.reason;
  attach(uow, card, h.recs);
  setHome(uow, h.fsKey, card.id, h.recs);
  uow.putCard(card, ctx.now);
  return card.id;
}

function createSummary(
  uow: UnitOfWork,
  ctx: PlanContext,
  array: string,
  channel: string,
  homes: NewHome[],
): string {
  const recs = homes.flatMap((h) => h.recs);
  const card = newCard({
    id: joinKey("s", channel, array, ctx.now),
    kind: "summary",
    array,
    channel,
    members: recs.map((r) => alertKey(r.array, r.name)),
    createdAt: ctx.now,
  });
  // The summary goes out when its most urgent member may: held only if every member is held.
  const holds = homes.map((h) => h.holdUntil);
  if (holds.every((x) => x !== undefined)) {
    card.holdUntil = Math.min(...(holds as number[]));
    const reason = homes[0]?.reason;
    if (reason) card.holdReason = reason;
  }
  attach(uow, card, recs);
  for (const h of homes) setHome(uow, h.fsKey, card.id, h.recs);
  uow.putCard(card, ctx.now);
  return card.id;
}
