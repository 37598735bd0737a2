/**
 * The console keeps pending approvals where the configuration says (`store:`, composed in main.ts like the
 * Slack app's), so a request made before a restart can still be approved after it: at start it shows their
 * cards again, with their buttons.
 */
import { requestCard } from "../core/approvals/gate-messages.js";
import type { PendingStore } from "../core/approvals/pending-store.js";
import type { Message } from "../core/presentation/message.js";

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
