/**
 * The console keeps pending approvals where the configuration says (`store:`), like the Slack app, so a
 * request made before a restart can still be approved after it. The built-in demo keeps them in memory.
 */
import { storeOptions } from "../alerts/start.js";
import type { LoadedConfig } from "../config/load.js";
import { requestCard } from "../core/gate-messages.js";
import type { Message } from "../core/message.js";
import type { PendingStore } from "../core/pending-store.js";
import { createDurablePendingStore } from "../core/pending-store-durable.js";
import { createMemoryPendingStore } from "../core/pending-store-memory.js";
import { openStore } from "../store/index.js";

export interface ConsoleStore {
  pending: PendingStore;
  close(): Promise<void>;
}

/** The configured store; memory for the demo (no configuration file). */
export function openConsoleStore(
  loaded: LoadedConfig | undefined,
  now: () => number = Date.now,
): ConsoleStore {
  if (loaded === undefined) return { pending: createMemoryPendingStore(), close: async () => {} };
  const store = openStore(storeOptions(loaded), now);
  return { pending: createDurablePendingStore(store), close: () => store.close() };
}

/** The cards of requests still waiting (made before a restart), with their buttons, oldest first. */
export async function waitingCards(
  pending: PendingStore,
  opts: { now: number; timeZone: string },
): Promise<Message[]> {
  const open = await pending.listOpen();
  return open
    .filter((r) => r.kind === "request" && r.status === "pending" && r.expiresAt > opts.now)
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((r) => requestCard(r, r.display, opts.now, opts.timeZone));
}
