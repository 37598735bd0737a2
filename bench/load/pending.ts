/**
 * Where the load's bot keeps pending approvals: in memory (the load's default), or in SQLite on disk as a
 * deployment without Redis does (`npm run load -- --pending sqlite`), in a directory of the run's own, removed at
 * the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PendingStore } from "../../src/core/approvals/pending-store.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { openSqliteStore } from "../../src/store/sqlite.js";

export interface LoadPending {
  store: PendingStore;
  /** In memory, the records held (open and the finished kept); in SQLite, the open ones (the rest stay on disk). */
  count(): Promise<number>;
  close(): Promise<void>;
}

export function pendingInMemory(): LoadPending {
  const store = createMemoryPendingStore();
  return { store, count: async () => store.size, close: async () => {} };
}

/** SQLite as a deployment without Redis keeps it (WAL, synchronous full), in a directory of this run's own. */
export function pendingOnDisk(): LoadPending {
  const dataDir = mkdtempSync(join(tmpdir(), "load-pending-"));
  const disk = openSqliteStore({ dataDir });
  const store = createDurablePendingStore(disk);
  return {
    store,
    count: async () => (await store.listOpen()).length,
    async close() {
      await disk.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
