import { createMemoryStore } from "./memory.js";
import { openRedisStore, type RedisStoreEvents } from "./redis.js";
import { openSqliteStore } from "./sqlite.js";
import type { Store, StoreOptions } from "./types.js";

/**
 * Opens the store the config names; `events` hears a Redis store's failures and up/down changes, and a SQLite
 * store's data volume filling up and having room again.
 */
export function openStore(
  opts: StoreOptions,
  now: () => number = Date.now,
  events?: RedisStoreEvents,
): Store {
  if (opts.kind === "memory") return createMemoryStore({ now });
  if (opts.kind === "redis") {
    const { kind: _kind, ...rest } = opts;
    return openRedisStore({ ...rest, now, ...(events ? { events } : {}) });
  }
  const o: Parameters<typeof openSqliteStore>[0] = {
    dataDir: opts.dataDir,
    now,
    ...(events ? { events } : {}),
  };
  if (opts.fileName !== undefined) o.fileName = opts.fileName;
  if (opts.synchronous !== undefined) o.synchronous = opts.synchronous;
  return openSqliteStore(o);
}

/**
 * Whether the store can take writes now: the connection state for Redis, the data volume's room for SQLite,
 * always for the in-memory store.
 */
export function storeHealth(store: Store): { up: boolean; detail: string } {
  const h = (store as { health?: () => { up: boolean; detail: string } }).health;
  return h ? h.call(store) : { up: true, detail: "embedded" };
}

export type { Store, StoreOptions } from "./types.js";
