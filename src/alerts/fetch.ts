/**
 * Reads what changed on one array since the last poll. Incremental reads ask only for alerts updated since the
 * highest `updated` seen (`>=`, so an alert updated in the same millisecond as the cursor is never skipped;
 * unchanged copies are ignored by the diff). Every `reconcile_every` the full list of open alerts is read too,
 * and an alert we hold as open that is neither open nor changed any more is looked up by name, so a missed
 * update (array clock step, alert deleted) cannot leave a card open forever.
 */
import { BotError, isUserFacing } from "../errors.js";
import { anyOf, ge, ne } from "../flashblade/filter.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/types.js";
import { alertKey, isClosed, parseAlert } from "./alert-model.js";
import { isBotAlert } from "./capacity-rule.js";
import { type Cursor, NS } from "./repo.js";
import type { AlertRecord, AlertSnapshot, AlertSource, RawAlert } from "./types.js";

export type FetchMode = "first" | "incremental" | "reconcile";

export interface FetchResult {
  mode: FetchMode;
  alerts: AlertSnapshot[];
  cursor: Cursor;
  /** The cursor the read started from. */
  previous?: Cursor;
}

const NAMES_PER_CALL = 50;

export interface FetchDeps {
  source: AlertSource;
  logger: Logger;
  /** Records of this array the engine holds as not closed (for reconcile). */
  knownOpen(): Promise<AlertRecord[]>;
}

function parseAll(raw: readonly RawAlert[], logger: Logger, array: string): AlertSnapshot[] {
  const out: AlertSnapshot[] = [];
  for (const r of raw) {
    const p = parseAlert(r);
    if (p.ok) out.push(p.alert);
    else logger.warn({ array, problem: p.problem }, "array sent an alert we cannot read; skipped");
  }
  return out;
}

export async function fetchChanges(
  deps: FetchDeps,
  array: string,
  cursor: Cursor | undefined,
  now: number,
  reconcileEvery: number,
): Promise<FetchResult> {
  const { source, logger } = deps;
  const openFilter = ne("state", "closed");
  const byName = new Map<string, AlertSnapshot>();
  const add = (list: AlertSnapshot[]) => {
    for (const a of list) {
      const had = byName.get(a.name);
      if (!had || had.updated <= a.updated) byName.set(a.name, a);
    }
  };

  if (!cursor) {
    // First contact: adopt what is open now and start the cursor at the newest change, so years of closed
    // history are never replayed into the channel.
    add(parseAll(await source.list(array, { filter: openFilter }), logger, array));
    const newest = parseAll(await source.list(array, { sort: "updated-", limit: 1 }), logger, array);
    const alerts = [...byName.values()];
    const maxUpdated = Math.max(0, ...alerts.map((a) => a.updated), ...newest.map((a) => a.updated));
    return { mode: "first", alerts, cursor: { maxUpdated, reconciledAt: now } };
  }

  add(parseAll(await source.list(array, { filter: ge("updated", cursor.maxUpdated) }), logger, array));
  let mode: FetchMode = "incremental";
  let reconciledAt = cursor.reconciledAt;
  if (now - cursor.reconciledAt >= reconcileEvery) {
    mode = "reconcile";
    reconciledAt = now;
    const open = parseAll(await source.list(array, { filter: openFilter }), logger, array);
    add(open);
    // Held as open here, yet neither open nor changed there: look each up to learn how it ended.
    // The bot's own alerts (capacity forecast) are never on the array's list.
    const lost = (await deps.knownOpen()).filter(
      (r) => !isClosed(r) && !byName.has(r.name) && !isBotAlert(r.name),
    );
    for (let i = 0; i < lost.length; i += NAMES_PER_CALL) {
      // A filter, not names=: the array refuses a names= list outright when one of them no longer exists.
      const filter = anyOf(
        "name",
        lost.slice(i, i + NAMES_PER_CALL).map((r) => r.name),
      );
      if (filter) add(parseAll(await source.list(array, { filter }), logger, array));
    }
    for (const r of lost) {
      if (byName.has(r.name)) continue;
      // The array no longer lists it at all: treat it as closed now.
      logger.info(
        { array, alert: alertKey(array, r.name) },
        "alert vanished from the array; marking it closed",
      );
      byName.set(r.name, {
        ...stripRecord(r),
        state: "closed",
        updated: Math.max(r.updated, cursor.maxUpdated),
      });
    }
  }
  const alerts = [...byName.values()];
  const maxUpdated = Math.max(cursor.maxUpdated, ...alerts.map((a) => a.updated));
  return { mode, alerts, cursor: { maxUpdated, reconciledAt }, previous: cursor };
}

function stripRecord(r: AlertRecord): AlertSnapshot {
  const { array: _a, firstSeenAt: _f, cardIds: _c, ...snap } = r;
  return snap;
}

/** What a poll failure says in the reachability card: a user-facing message as is, otherwise only its code. */
export function failureReason(err: unknown): string {
  if (isUserFacing(err)) return err.message;
  if (err instanceof BotError) return `internal error ${err.code} (see the bot's log)`;
  return "unexpected error (see the bot's log)";
}

/**
 * Reads what changed on one array since its cursor (or, for an array without alerts, only whether it answers).
 * A failure is returned, not thrown: an unreachable array is itself news the poll records.
 */
export async function readArray(
  o: { source: AlertSource; store: Store; log: Logger; now: number; reconcileEvery: number },
  array: string,
  knownOpen: () => Promise<AlertRecord[]>,
): Promise<{
  fetched?: Awaited<ReturnType<typeof fetchChanges>>;
  mode: FetchMode | "probe";
  failure?: unknown;
}> {
  try {
    if (await o.source.supportsAlerts(array)) {
      const cursor = await o.store.get<Cursor>(NS.cursor, array);
      const fetched = await fetchChanges(
        { source: o.source, logger: o.log, knownOpen },
        array,
        cursor,
        o.now,
        o.reconcileEvery,
      );
      return { fetched, mode: fetched.mode };
    }
    await o.source.probe(array);
    return { mode: "probe" };
  } catch (failure) {
    return { mode: "probe", failure };
  }
}
