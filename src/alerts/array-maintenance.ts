/**
 * Maintenance windows the array itself holds (REST 2.16+ `/maintenance-windows`): while one is in force, the
 * alerts it covers are recorded but their cards wait for its end, as the configured windows' cards do
 * (delivery.ts); when it ends, what is still open is posted and what resolved meanwhile is dropped, and the first
 * card posted in each channel gets one thread note saying how many alerts the window held there.
 *
 * Read by a poll that may place a card (windowsNeeded: an alert changed, or the array keeps a window), one GET on
 * arrays that speak 2.16+; a quiet poll of an array with no window skips it, so a quiet fleet's polls cost one call
 * each, not two. A window named after a component (`CH1`, `CH1.FB3`, as `hardware list` names them) covers that
 * component and what is inside it; any other name (`fw-upgrade`) covers the whole array.
 */
import type { Logger } from "../logger.js";
import { joinKey } from "../store/keys.js";
import type { Store } from "../store/types.js";
import { alertKey, isClosed } from "./alert-model.js";
import type { Delivery } from "./delivery.js";
import { diffAlert } from "./diff.js";
import { NS, type UnitOfWork } from "./repo.js";
import type { AlertRecord, AlertSnapshot, AlertSource, Card } from "./types.js";

export interface ArrayWindow {
  name: string;
  /** When it began and ends (array clock, ms). */
  start: number;
  end: number;
}

/** What a window in force held, per channel: the alerts whose cards wait for its end. */
export interface WindowTally {
  array: string;
  window: string;
  end: number;
  held: Record<string, string[]>;
}

const COMPONENT = /^[a-z]+\d+(\.[a-z]+\d+)*$/i;

/** Whether window `w` covers an alert of `component`. */
export function covers(w: ArrayWindow, component: string): boolean {
  if (!COMPONENT.test(w.name)) return true;
  const c = component.toUpperCase();
  const n = w.name.toUpperCase();
  return c === n || c.startsWith(`${n}.`);
}

export const inForce = (windows: readonly ArrayWindow[], now: number): ArrayWindow[] =>
  windows.filter((w) => w.start <= now && now < w.end);

/**
 * Whether a poll must read the array's windows. A window decides where a new card waits (the planner's hold) and
 * when a kept tally settles; a poll whose alerts all match what the store holds places no card, so the call is
 * skipped unless `always` (the array has had a window since start, this is the first look since start, or a
 * capacity or certificate alert may be placed). A store that cannot answer means "read them": never a card posted into a window.
 */
export async function windowsNeeded(
  store: Pick<Store, "getMany">,
  array: string,
  alerts: readonly AlertSnapshot[],
  always: boolean,
): Promise<boolean> {
  if (always) return true;
  if (alerts.length === 0) return false;
  try {
    const held = await store.getMany<AlertRecord>(
      NS.alert,
      alerts.map((a) => alertKey(array, a.name)),
    );
    return alerts.some((a) => diffAlert(held.get(alertKey(array, a.name)), a).length > 0);
  } catch {
    return true;
  }
}

/** The array's windows; none where it keeps none (1.x, before 2.16) or could not say (never fatal to a poll). */
export async function readWindows(source: AlertSource, array: string, log: Logger): Promise<ArrayWindow[]> {
  if (!source.maintenanceWindows) return [];
  try {
    return await source.maintenanceWindows(array);
  } catch (err) {
    log.warn({ err }, "maintenance windows not read; alerts are posted as usual");
    return [];
  }
}

/**
 * The planner's hook for one poll: holds a card's post until the end of the longest window in force that covers
 * its alert (a longer configured hold stands), noting the alert in that window's tally.
 */
export function windowHolds(array: string, windows: readonly ArrayWindow[], now: number) {
  const live = inForce(windows, now);
  const tallies = new Map<string, WindowTally>();
  const hold = (rec: AlertRecord, base: Delivery): Delivery => {
    const w = live.filter((x) => covers(x, rec.component)).sort((a, b) => b.end - a.end)[0];
    // A configured window that redirects (no hold) or holds longer keeps its delivery.
    if (!w || (base.reason !== undefined && base.holdUntil === undefined) || (base.holdUntil ?? 0) >= w.end)
      return base;
    let t = tallies.get(w.name);
    if (!t) {
      t = { array, window: w.name, end: w.end, held: {} };
      tallies.set(w.name, t);
    }
    const list = t.held[base.channel] ?? [];
    t.held[base.channel] = [...list, alertKey(rec.array, rec.name)];
    return { channel: base.channel, holdUntil: w.end, reason: "maintenance" };
  };
  return { hold, tallies, live };
}

const note = (t: WindowTally, n: number) =>
  `The array's maintenance window ${t.window} on ${t.array} held ${n === 1 ? "1 alert" : `${n} alerts`} here; those still open when it ended are posted, those that resolved during it are not.`;

/**
 * Keeps this poll's tallies beside earlier ones, and for every window that is over (its end passed, or the array
 * no longer lists it) queues the thread note on the first held card of each channel, then forgets the window.
 * True while a window's tally is kept.
 */
export async function settleWindows(
  uow: UnitOfWork,
  array: string,
  windows: readonly ArrayWindow[],
  tallies: ReadonlyMap<string, WindowTally>,
  now: number,
): Promise<boolean> {
  const key = joinKey(array);
  const kept = (await uow.get<WindowTally[]>(NS.maintenance, key)) ?? [];
  const byName = new Map(kept.map((t) => [t.window, t]));
  for (const t of tallies.values()) {
    const had = byName.get(t.window);
    const held: Record<string, string[]> = { ...had?.held };
    for (const [ch, keys] of Object.entries(t.held)) held[ch] = [...new Set([...(held[ch] ?? []), ...keys])];
    byName.set(t.window, { ...t, held });
  }
  const live = new Set(inForce(windows, now).map((w) => w.name));
  const left: WindowTally[] = [];
  for (const t of byName.values()) {
    if (live.has(t.window) && now < t.end) {
      left.push(t);
      continue;
    }
    for (const [channel, keys] of Object.entries(t.held)) {
      const cards = await heldCards(uow, channel, keys);
      // Ended early (the window was deleted): what it held goes out now, not at its planned end.
      for (const { card: c } of cards)
        if (!c.ref && (c.holdUntil ?? 0) > now) {
          c.holdUntil = now;
          uow.putCard(c, now);
        }
      const first = cards.find((c) => c.open)?.card;
      if (!first) continue;
      first.thread.push({ id: first.nextLineId, text: note(t, keys.length) });
      first.nextLineId += 1;
      uow.putCard(first, now);
    }
  }
  if (left.length) uow.put(NS.maintenance, key, left);
  else if (kept.length) uow.delete(NS.maintenance, key);
  return left.length > 0 || windows.length > 0;
}

/** The cards in `channel` of the held alerts, in the order they were held; `open` when an alert on it still is. */
async function heldCards(
  uow: UnitOfWork,
  channel: string,
  keys: readonly string[],
): Promise<{ card: Card; open: boolean }[]> {
  const out = new Map<string, { card: Card; open: boolean }>();
  for (const k of keys) {
    const rec = await uow.alert(k);
    for (const id of rec?.cardIds ?? []) {
      const card = await uow.card(id);
      if (!card || card.channel !== channel || card.dropped || card.failed) continue;
      const open = (out.get(id)?.open ?? false) || (rec !== undefined && !isClosed(rec));
      out.set(id, { card: out.get(id)?.card ?? card, open });
    }
  }
  return [...out.values()];
}
