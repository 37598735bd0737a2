/**
 * What a file system replica link has sent: its policies' snapshots, one after another, each taking
 * `transferTime` of its schedule. The target holds whole snapshots, so the link's recovery point is the creation
 * time of the newest snapshot sent, and the lag the array reports is measured from it: the lag, the last
 * snapshot sent and the transfers listed always agree.
 *
 * A stalled (paused or broken) link sends nothing after it stopped. A link running again after a stall catches
 * up at CATCH_UP_SPEED: its recovery point moves `CATCH_UP_SPEED` ms of the source's time per ms (linkLag's
 * catch-up line), so a snapshot is sent when that line reaches its creation time.
 */
import { CATCH_UP_SPEED, type LinkHealth, stalledSince } from "./replication.js";

export interface LinkSnapshot {
  name: string;
  created: number;
}

export interface LinkTransfer {
  snapshot: LinkSnapshot;
  status: "completed" | "in-progress" | "queued";
  /** Null while queued: nothing of it has been sent. */
  started: number | null;
  completed: number | null;
  /** A fraction in [0, 1]. */
  progress: number;
}

/** Unsent snapshots listed at most (a link stalled for days on an hourly schedule would list hundreds). */
const MAX_UNSENT = 24;
/** Completed transfers listed: the newest ones. */
const SHOWN_SENT = 2;

/** When `created` reached the target: never (null) while the link has been stalled since before it could. */
export function sentAt(h: LinkHealth, created: number, took: number): number | null {
  const plain = created + took;
  let t = plain;
  const resumed = h.resumedAt ?? null;
  if (resumed !== null) {
    // The catch-up line: recovery point at t = t - lagAtResume + (t - resumed) * (CATCH_UP_SPEED - 1).
    const lagAtResume = h.lagAtResume ?? 0;
    const reached = (created + lagAtResume + resumed * (CATCH_UP_SPEED - 1)) / CATCH_UP_SPEED;
    if (reached > resumed) t = Math.max(reached, plain);
  }
  const stalled = stalledSince(h);
  return stalled !== null && t > stalled ? null : t;
}

/**
 * The link's transfers at `now` from its snapshots (any order): the newest sent ones and every unsent one
 * (newest first), the newest sent snapshot, and the lag measured from it (undefined when none was sent).
 */
export function linkTransfers(
  h: LinkHealth,
  snapshots: readonly LinkSnapshot[],
  took: number,
  now: number,
): { sent: LinkSnapshot | undefined; lag: number | undefined; transfers: LinkTransfer[] } {
  const inOrder = [...snapshots].filter((s) => s.created <= now).sort((a, b) => a.created - b.created);
  const at = inOrder.map((s) => sentAt(h, s.created, took));
  let lastSent = -1;
  for (let i = 0; i < inOrder.length; i++) {
    const t = at[i];
    if (t !== null && t !== undefined && t <= now) lastSent = i;
  }
  const running = stalledSince(h) === null;
  const transfers: LinkTransfer[] = [];
  for (let i = Math.max(0, lastSent - SHOWN_SENT + 1); i < inOrder.length; i++) {
    const snapshot = inOrder[i] as LinkSnapshot;
    const done = i <= lastSent ? (at[i] as number) : null;
    const prevDone = i > 0 ? (at[i - 1] ?? null) : null;
    const started = Math.max(
      snapshot.created,
      prevDone !== null && prevDone <= now ? prevDone : snapshot.created,
    );
    if (done !== null) {
      transfers.push({ snapshot, status: "completed", started: done - took, completed: done, progress: 1 });
    } else if (running && i === lastSent + 1) {
      const due = at[i] ?? now + took;
      const share = due > started ? (now - started) / (due - started) : 0;
      const progress = Math.min(0.99, Math.max(0, Math.floor(share * 100) / 100));
      transfers.push({ snapshot, status: "in-progress", started, completed: null, progress });
    } else {
      transfers.push({ snapshot, status: "queued", started: null, completed: null, progress: 0 });
    }
  }
  const unsentFrom = transfers.findIndex((t) => t.status !== "completed");
  // The oldest unsent ones: the one being sent and those next in line.
  const shown = unsentFrom < 0 ? transfers : transfers.slice(0, unsentFrom + MAX_UNSENT);
  const sent = lastSent >= 0 ? inOrder[lastSent] : undefined;
  return { sent, lag: sent === undefined ? undefined : now - sent.created, transfers: shown.reverse() };
}
