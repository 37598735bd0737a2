import { InternalError } from "../errors.js";
import type { ListOptions, Store, StoreEntry, StoreOp, WriteGuard } from "./types.js";

const LEASE_NS = "leases";

interface Row {
  /** Kept serialised so callers never share object identity with the store, exactly as with SQLite. */
  json: string;
  expiresAt?: number;
}

/** The in-memory store: same semantics as the SQLite one (JSON copies, atomic batches, expiry), nothing durable. */
export function createMemoryStore(opts: { now?: () => number } = {}): Store {
  const now = opts.now ?? Date.now;
  const spaces = new Map<string, Map<string, Row>>();
  let closed = false;

  const space = (ns: string): Map<string, Row> => {
    let s = spaces.get(ns);
    if (!s) {
      s = new Map();
      spaces.set(ns, s);
    }
    return s;
  };
  const live = (row: Row | undefined): row is Row =>
    row !== undefined && (row.expiresAt === undefined || row.expiresAt > now());
  const check = (): void => {
    if (closed) throw new InternalError("STORE_CLOSED", "the store was used after close()");
  };
  const checkGuard = (g: WriteGuard | undefined): void => {
    if (!g) return;
    const row = spaces.get(LEASE_NS)?.get(g.lease);
    if (!guardHolds(row?.json, g, now())) throw fenced(g);
  };

  return {
    async get<T>(ns: string, key: string): Promise<T | undefined> {
      check();
      const row = spaces.get(ns)?.get(key);
      return live(row) ? (JSON.parse(row.json) as T) : undefined;
    },
    async getMany<T>(ns: string, keys: readonly string[]): Promise<Map<string, T>> {
      check();
      const out = new Map<string, T>();
      const s = spaces.get(ns);
      for (const key of keys) {
        const row = s?.get(key);
        if (live(row)) out.set(key, JSON.parse(row.json) as T);
      }
      return out;
    },
    async list<T>(ns: string, o: ListOptions = {}): Promise<StoreEntry<T>[]> {
      check();
      const s = spaces.get(ns);
      if (!s) return [];
      const prefix = o.prefix ?? "";
      const keys = [...s.keys()].filter((k) => k.startsWith(prefix)).sort();
      const out: StoreEntry<T>[] = [];
      for (const key of keys) {
        if (o.limit !== undefined && out.length >= o.limit) break;
        const row = s.get(key);
        if (!live(row)) continue;
        const entry: StoreEntry<T> = { key, value: JSON.parse(row.json) as T };
        if (row.expiresAt !== undefined) entry.expiresAt = row.expiresAt;
        out.push(entry);
      }
      return out;
    },
    async write(ops: readonly StoreOp[], wo: { guard?: WriteGuard } = {}): Promise<void> {
      check();
      checkGuard(wo.guard);
      // Serialise everything first so a bad value fails the batch before anything is applied.
      const prepared = ops.map((op) =>
        op.op === "put" ? { op, json: serialise(op.value) } : { op, json: "" },
      );
      for (const { op, json } of prepared) {
        if (op.op === "delete") {
          spaces.get(op.ns)?.delete(op.key);
          continue;
        }
        const row: Row = { json };
        if (op.expiresAt !== undefined) row.expiresAt = op.expiresAt;
        space(op.ns).set(op.key, row);
      }
    },
    async update<T>(
      ns: string,
      key: string,
      fn: (current: T | undefined) => T | undefined,
      o: { expiresAt?: number; guard?: WriteGuard } = {},
    ): Promise<T | undefined> {
      check();
      checkGuard(o.guard);
      const row = spaces.get(ns)?.get(key);
      const next = fn(live(row) ? (JSON.parse(row.json) as T) : undefined);
      if (next === undefined) {
        spaces.get(ns)?.delete(key);
        return undefined;
      }
      const stored: Row = { json: serialise(next) };
      const expiresAt = o.expiresAt ?? (live(row) ? row.expiresAt : undefined);
      if (expiresAt !== undefined) stored.expiresAt = expiresAt;
      space(ns).set(key, stored);
      return JSON.parse(stored.json) as T;
    },
    async take<T>(ns: string, key: string): Promise<T | undefined> {
      check();
      const s = spaces.get(ns);
      const row = s?.get(key);
      s?.delete(key);
      return live(row) ? (JSON.parse(row.json) as T) : undefined;
    },
    async sweepExpired(): Promise<number> {
      check();
      let n = 0;
      for (const s of spaces.values()) {
        for (const [key, row] of s) {
          if (!live(row)) {
            s.delete(key);
            n++;
          }
        }
      }
      return n;
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}

/** JSON.stringify that refuses values it would silently drop or mangle. */
export function serialise(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined)
    throw new InternalError("STORE_BAD_VALUE", "store values must be JSON-serialisable");
  return json;
}

/** Whether the stored lease record (JSON) is live and held by the guard's owner with the guard's fence. */
export function guardHolds(json: string | undefined, g: WriteGuard, now: number): boolean {
  if (json === undefined) return false;
  const rec = JSON.parse(json) as { owner?: string; fence?: number; expiresAt?: number };
  return rec.owner === g.owner && rec.fence === g.fence && (rec.expiresAt ?? 0) > now;
}

export function fenced(g: WriteGuard): InternalError {
  return new InternalError("STORE_FENCED", `lease ${g.lease} is no longer held by ${g.owner}`);
}
