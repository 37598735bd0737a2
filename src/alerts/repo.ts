/**
 * The engine's state on the store: typed namespaces plus a unit of work that reads through a cache and commits
 * every change of one step (a poll, a post, a click) as one atomic batch.
 */
import { joinKey } from "../store/keys.js";
import type { Store, StoreOp, WriteGuard } from "../store/types.js";
import type { AlertRecord, Card } from "./types.js";

/** Per array: where incremental reads resume. */
export interface Cursor {
  /** Highest `updated` (array time) seen; the next read asks for `updated>=` this. */
  maxUpdated: number;
  /** Bot time of the last full read of open alerts. */
  reconciledAt: number;
}

/** Per channel and alert family: which card is its home and when it last did anything (array time). */
export interface FamilyState {
  cardId: string;
  lastActivity: number;
  /** Members still open; while any is, a reopening always joins the card. */
  open: string[];
}

/** Per array: an ongoing polling failure and the cards that announce it. */
export interface ReachState {
  failingSince?: number;
  reason?: string;
  cardIds: string[];
}

export interface Snooze {
  until: number;
  by: string;
}

/** Cards waiting for the notifier, and from when. */
export interface OutboxEntry {
  due: number;
}

export const NS = {
  alert: "alerts.alert",
  card: "alerts.card",
  family: "alerts.family",
  outbox: "alerts.outbox",
  cursor: "alerts.cursor",
  reach: "alerts.reach",
  snooze: "alerts.snooze",
  /** What the array's own maintenance windows held, per array (array-maintenance.ts). */
  maintenance: "alerts.maintenance",
  /** Per channel and fleet family (code and component kind, any array): see fleet-storm.ts. */
  fleet: "alerts.fleet",
} as const;

type Ns = (typeof NS)[keyof typeof NS];

/** The array a card belongs to, from its id (kind/channel/array/…, see newCard's callers). */
export function cardArray(id: string): string | undefined {
  const part = id.split("/")[2];
  return part === undefined ? undefined : decodeURIComponent(part);
}

export const familyStateKey = (channel: string, family: string): string => joinKey(channel, family);

/**
 * A posted fleet card's message is brought up to date at most this often (its thread lines go out with each
 * update). A storm over a thousand arrays changes it on nearly every poll, 30 times a second; each update reads
 * and renders every member, and Slack would refuse that rate of chat.update anyway. Its other cards are not paced.
 */
export const FLEET_CARD_PACE_MS = 10_000;

/** Reads go through a cache so a step sees its own writes; `commit` writes everything at once. */
export class UnitOfWork {
  private readonly cache = new Map<string, unknown>();
  private readonly ops = new Map<string, StoreOp>();

  constructor(readonly store: Store) {}

  private static id(ns: string, key: string): string {
    return `${ns}\u0000${key}`;
  }

  async get<T>(ns: Ns, key: string): Promise<T | undefined> {
    const id = UnitOfWork.id(ns, key);
    if (this.cache.has(id)) return this.cache.get(id) as T | undefined;
    const v = await this.store.get<T>(ns, key);
    this.cache.set(id, v);
    return v;
  }

  async getMany<T>(ns: Ns, keys: readonly string[]): Promise<Map<string, T>> {
    const missing = keys.filter((k) => !this.cache.has(UnitOfWork.id(ns, k)));
    if (missing.length > 0) {
      const found = await this.store.getMany<T>(ns, missing);
      for (const k of missing) this.cache.set(UnitOfWork.id(ns, k), found.get(k));
    }
    const out = new Map<string, T>();
    for (const k of keys) {
      const v = this.cache.get(UnitOfWork.id(ns, k)) as T | undefined;
      if (v !== undefined) out.set(k, v);
    }
    return out;
  }

  put(ns: Ns, key: string, value: unknown, expiresAt?: number): void {
    const id = UnitOfWork.id(ns, key);
    this.cache.set(id, value);
    const op: StoreOp = { op: "put", ns, key, value };
    if (expiresAt !== undefined) op.expiresAt = expiresAt;
    this.ops.set(id, op);
  }

  delete(ns: Ns, key: string): void {
    const id = UnitOfWork.id(ns, key);
    this.cache.set(id, undefined);
    this.ops.set(id, { op: "delete", ns, key });
  }

  get pending(): number {
    return this.ops.size;
  }

  /** Whether a change waiting to be committed is in `ns`. */
  touches(ns: Ns): boolean {
    for (const op of this.ops.values()) if (op.ns === ns) return true;
    return false;
  }

  /** Writes every change at once; with `guard`, only while that lease is still held (else STORE_FENCED). */
  async commit(guard?: WriteGuard): Promise<void> {
    const ops = [...this.ops.values()];
    this.ops.clear();
    await this.store.write(ops, guard ? { guard } : {});
  }

  // Typed helpers for the namespaces every step touches.
  alert(key: string): Promise<AlertRecord | undefined> {
    return this.get<AlertRecord>(NS.alert, key);
  }
  putAlert(key: string, r: AlertRecord): void {
    this.put(NS.alert, key, r);
  }
  card(id: string): Promise<Card | undefined> {
    return this.get<Card>(NS.card, id);
  }
  /**
   * Stores a changed card and queues it for the notifier; a card not yet posted waits out its hold, and a posted
   * fleet card its pace (FLEET_CARD_PACE_MS).
   */
  putCard(card: Card, now: number): void {
    const due = card.ref
      ? card.fleet !== undefined && card.syncedAt !== undefined
        ? Math.max(now, card.syncedAt + FLEET_CARD_PACE_MS)
        : now
      : Math.max(now, card.holdUntil ?? now);
    this.put(NS.card, card.id, card);
    this.put(NS.outbox, card.id, { due } satisfies OutboxEntry);
  }
}

/**
 * Marks a card changed and queues thread lines. Lines only go to cards Slack already shows: a card still
 * waiting to be posted will show the latest state anyway.
 */
export function touchCard(card: Card, lines: readonly string[] = []): void {
  card.version += 1;
  if (!card.ref) return;
  for (const text of lines) {
    card.thread.push({ id: card.nextLineId, text });
    card.nextLineId += 1;
  }
}

/** A fresh card; ids are deterministic so the same step can never create two. */
export function newCard(
  fields: Pick<Card, "id" | "kind" | "array" | "channel" | "members" | "createdAt"> & Partial<Card>,
): Card {
  return { version: 1, syncedVersion: 0, thread: [], nextLineId: 1, reopenings: [], ...fields };
}
