/**
 * The bot's own record of changes, kept in the store so every replica can answer `/array history`: each audit
 * record of a change (sent at once, or gated and then confirmed, approved, vetoed, expired or voided) is filed
 * under its array, object kind and name, the last `keep` per object, each for `days` days. Records arrive
 * already redacted (createAuditor), so what is kept here is what the audit log holds.
 */
import { joinKey, keyPrefix } from "../../store/keys.js";
import type { Store } from "../../store/types.js";
import type { Registry } from "../catalogue/registry.js";
import type { AuditDecision, AuditRecord, AuditSink } from "./audit.js";

const NS = "audit-history";
const DAY_MS = 86_400_000;

export interface ObjectRef {
  array: string;
  /** The resource's name as the registry has it: "fs", "snmp manager". */
  kind: string;
  /** The object's name; "" for a resource without one (`dns set`). */
  name: string;
}

export interface AuditHistory {
  add(object: ObjectRef, rec: AuditRecord): Promise<void>;
  /** The records kept for one object, oldest first. */
  of(object: ObjectRef): Promise<AuditRecord[]>;
}

export interface AuditHistoryOptions {
  /** Records kept per object; the oldest go first. */
  keep: number;
  /** Days a record is kept. */
  days: number;
}

export function createAuditHistory(store: Store, o: AuditHistoryOptions): AuditHistory {
  const prefixOf = (x: ObjectRef) => keyPrefix(x.array, x.kind, x.name);
  let written = 0;
  return {
    async add(object, rec) {
      const prefix = prefixOf(object);
      // ISO times sort as text, so the store's key order is time order; records of one millisecond keep the
      // order they were written in (a request, then its confirmation) by this process's count.
      const key = prefix + joinKey(rec.at, String(++written).padStart(12, "0"), rec.id);
      const expiresAt = Date.parse(rec.at) + o.days * DAY_MS;
      await store.write([{ op: "put", ns: NS, key, value: rec, expiresAt }]);
      const kept = await store.list(NS, { prefix });
      const extra = kept.length - o.keep;
      if (extra > 0)
        await store.write(kept.slice(0, extra).map((e) => ({ op: "delete" as const, ns: NS, key: e.key })));
    },
    async of(object) {
      return (await store.list<AuditRecord>(NS, { prefix: prefixOf(object) })).map((e) => e.value);
    },
  };
}

/** Decisions that say something about a change to an object; dry runs, refusals and partial approvals do not. */
const KEPT: ReadonlySet<AuditDecision> = new Set<AuditDecision>([
  "allowed",
  "pending",
  "confirmed",
  "approved",
  "vetoed",
  "cancelled",
  "expired",
  "voided",
  "interrupted",
]);

/** The object a record of a changing command is about: its array, resource and first positional argument. */
export function objectOf(rec: AuditRecord, registry: Registry): ObjectRef | undefined {
  const entry = registry.byId(rec.command);
  const array = rec.arrays[0];
  if (!entry?.command.impact || array === undefined || !KEPT.has(rec.decision)) return undefined;
  const key = entry.command.positional?.[0];
  const name = key === undefined ? undefined : rec.args[key];
  return { array, kind: entry.resource.name, name: typeof name === "string" ? name : "" };
}

/** The sink the face brought, and the history for records of changes; one failing does not stop the other. */
export function withHistory(inner: AuditSink, history: AuditHistory, registry: Registry): AuditSink {
  return {
    async write(rec) {
      const object = objectOf(rec, registry);
      const [a, b] = await Promise.allSettled([
        inner.write(rec),
        object ? history.add(object, rec) : Promise.resolve(),
      ]);
      if (a.status === "rejected") throw a.reason;
      if (b.status === "rejected") throw b.reason;
    },
  };
}

/** What `/array history` and views of destroyed objects read: kinds resolved by the registry's nouns. */
export interface HistoryReader {
  /** The resource name for a noun or alias typed by a person ("filesystem" → "fs"), or undefined. */
  kind(noun: string): string | undefined;
  of(object: ObjectRef): Promise<AuditRecord[]>;
}

export function historyReader(history: AuditHistory, registry: Registry): HistoryReader {
  return {
    kind: (noun) => {
      const words = noun.toLowerCase().trim().replace(/\./g, " ");
      return registry.resource(words)?.name;
    },
    of: (object) => history.of(object),
  };
}
