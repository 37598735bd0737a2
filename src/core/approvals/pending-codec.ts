/**
 * The pending store's serialiser: every record passes the one redaction before it is written (SQLite file, Redis),
 * so no secret lands in the store whatever a command planned. A request whose arguments the redaction changed
 * (a proxy typed with its password: `--proxy http://user:pw@proxy:3128`) keeps its arguments as typed in this
 * process's memory only, until it is decided; the record on disk says so (`heldInMemory`). A click that reaches a
 * replica without them (another replica, a restart) cannot run it: the request fails with SECRET_NOT_KEPT and
 * nothing is sent, rather than sending the masked value.
 */

import { redact } from "../../redact.js";
import { OPEN_STATUSES, type PendingRecord } from "./pending-store.js";

export type StoredPending = PendingRecord & { heldInMemory?: true };

export interface PendingCodec {
  /** The record as written: redacted, its original arguments kept in memory when they held a secret. */
  seal(rec: PendingRecord): StoredPending;
  /** The record as read: its arguments as typed when this process holds them. */
  open(stored: StoredPending): PendingRecord;
  /** True when the record's arguments were redacted and this process does not hold them. */
  lost(stored: StoredPending | undefined): boolean;
}

export function pendingCodec(): PendingCodec {
  const held = new Map<string, Record<string, unknown>>();
  return {
    seal(rec) {
      const { heldInMemory: _was, ...plain } = rec as StoredPending;
      // `secrets` lists the secrets a request asks for (keys and labels), never their values: kept as it is.
      const { secrets, ...rest } = plain;
      const sealed: StoredPending = { ...redact(rest), ...(secrets ? { secrets } : {}) };
      const changed = JSON.stringify(sealed.args) !== JSON.stringify(plain.args);
      if (!OPEN_STATUSES.includes(rec.status)) held.delete(rec.id);
      else if (changed) held.set(rec.id, plain.args);
      return changed || (rec as StoredPending).heldInMemory ? { ...sealed, heldInMemory: true } : sealed;
    },
    open(stored) {
      const { heldInMemory, ...rec } = stored;
      if (!heldInMemory) return rec;
      const args = held.get(rec.id);
      return args ? { ...rec, args } : rec;
    },
    lost(stored) {
      return stored?.heldInMemory === true && !held.has(stored.id);
    },
  };
}
