/**
 * What change control keeps in the store, so every replica and a restart agree: break-glass changes waiting for
 * an admin's review, and time-bound access grants (which end by themselves: the store drops them at `until`).
 */
import type { Store } from "../../store/types.js";
import type { Role } from "../access/roles.js";

const BREAK_GLASS = "break-glass";
const GRANTS = "access-grants";
/** Reviewed break-glass entries are kept this long for the record, then go. */
const REVIEWED_KEEP_MS = 90 * 86_400_000;

export interface PersonRef {
  userId: string;
  displayName?: string;
}

export interface BreakGlassEntry {
  /** The request id of the change. */
  id: string;
  at: number;
  requester: PersonRef;
  command: string;
  array: string;
  freeze: string;
  reason: string;
  pendingId?: string;
  reviewed?: { by: PersonRef; at: number };
}

export interface AccessGrant {
  id: string;
  userId: string;
  displayName?: string;
  role: Role;
  /** `tag:prod`, or array names. */
  arrays: readonly string[];
  from: number;
  until: number;
  reason: string;
  approvedBy: readonly string[];
}

export interface ChangeControlRecords {
  addBreakGlass(e: BreakGlassEntry): Promise<void>;
  /** Break-glass changes not yet reviewed, oldest first. */
  unreviewed(): Promise<BreakGlassEntry[]>;
  /** Marks one reviewed; undefined when there is no such entry. */
  review(id: string, by: PersonRef, now: number): Promise<BreakGlassEntry | undefined>;
  addGrant(g: AccessGrant): Promise<void>;
  /** Grants in force at `now` (the store forgets them at `until`), oldest first. */
  grants(now: number): Promise<AccessGrant[]>;
  /** Ends a person's grants (only those `which` picks, when given); returns what ended. */
  revoke(userId: string, which?: (g: AccessGrant) => boolean): Promise<AccessGrant[]>;
}

export function changeControlRecords(store: Store): ChangeControlRecords {
  return {
    async addBreakGlass(e) {
      await store.write([{ op: "put", ns: BREAK_GLASS, key: `${e.at}:${e.id}`, value: e }]);
    },
    async unreviewed() {
      return (await store.list<BreakGlassEntry>(BREAK_GLASS)).map((x) => x.value).filter((e) => !e.reviewed);
    },
    async review(id, by, now) {
      const entry = (await store.list<BreakGlassEntry>(BREAK_GLASS)).find((x) => x.value.id === id);
      if (!entry) return undefined;
      return store.update<BreakGlassEntry>(
        BREAK_GLASS,
        entry.key,
        (cur) => (cur ? { ...cur, reviewed: cur.reviewed ?? { by, at: now } } : cur),
        { expiresAt: now + REVIEWED_KEEP_MS },
      );
    },
    async addGrant(g) {
      await store.write([
        { op: "put", ns: GRANTS, key: `${g.userId}:${g.id}`, value: g, expiresAt: g.until },
      ]);
    },
    async grants(now) {
      return (await store.list<AccessGrant>(GRANTS)).map((x) => x.value).filter((g) => g.until > now);
    },
    async revoke(userId, which) {
      const mine = await store.list<AccessGrant>(GRANTS, { prefix: `${userId}:` });
      const ending = mine.filter((x) => which === undefined || which(x.value));
      if (ending.length > 0)
        await store.write(ending.map((x) => ({ op: "delete" as const, ns: GRANTS, key: x.key })));
      return ending.map((x) => x.value);
    },
  };
}
