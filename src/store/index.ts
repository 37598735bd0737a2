import { createMemoryStore } from "./memory.js";
import { openSqliteStore } from "./sqlite.js";
import type { Store, StoreOptions } from "./types.js";

/** Opens the store the config names. */
export function openStore(opts: StoreOptions, now: () => number = Date.now): Store {
  if (opts.kind === "memory") return createMemoryStore({ now });
  const o: Parameters<typeof openSqliteStore>[0] = { dataDir: opts.dataDir, now };
  if (opts.fileName !== undefined) o.fileName = opts.fileName;
  if (opts.synchronous !== undefined) o.synchronous = opts.synchronous;
  return openSqliteStore(o);
}

export { joinKey, keyPrefix } from "./keys.js";
export type { ListOptions, Store, StoreEntry, StoreOp, StoreOptions } from "./types.js";
