/**
 * App Home refreshed after a change the person confirmed or approved, within Slack's limits on views.publish:
 * at most one publish per person per window. A change inside the window is not lost: the changes of a window
 * coalesce into one publish when it ends, so a burst of clicks costs two publishes, the first and the last.
 * And at most one publish per person waits for Slack at a time: views.publish is paced (100 a minute per
 * workspace), and refreshes due faster than that would queue without end, each holding a whole view, shown
 * minutes late (a 10-minute load of 40 busy people left 1,100 queued). A change while one is waiting or in flight
 * makes one more publish once it is done, so the last change is always shown.
 * The clock and the timer are injected, so tests advance time instead of waiting.
 */

/** The default window: one home publish per person per 10 seconds. */
export const HOME_REFRESH_MS = 10_000;

export interface HomeRefreshOptions {
  windowMs?: number;
  now: () => number;
  /** Runs `fn` after `ms` (a timer that does not hold the process open); tests pass one they fire by hand. */
  schedule?: (fn: () => void, ms: number) => void;
  publish: (userId: string) => Promise<void>;
  onError?: (err: unknown, userId: string) => void;
}

export interface HomeRefresher {
  /** Something this person did changed what their home shows: publish it now, or at the end of the window. */
  changed(userId: string): void;
}

const realSchedule = (fn: () => void, ms: number) => {
  setTimeout(fn, ms).unref();
};

export function createHomeRefresher(o: HomeRefreshOptions): HomeRefresher {
  const windowMs = o.windowMs ?? HOME_REFRESH_MS;
  const schedule = o.schedule ?? realSchedule;
  const last = new Map<string, number>();
  const waiting = new Set<string>();
  /** People whose publish is queued or in flight, and those of them who changed something since it began. */
  const busy = new Set<string>();
  const dirty = new Set<string>();

  const publish = (userId: string) => {
    if (busy.has(userId)) {
      dirty.add(userId);
      return;
    }
    last.set(userId, o.now());
    busy.add(userId);
    o.publish(userId)
      .catch((err: unknown) => o.onError?.(err, userId))
      .finally(() => {
        busy.delete(userId);
        if (dirty.delete(userId)) refresher.changed(userId);
      });
  };

  const refresher: HomeRefresher = {
    changed(userId) {
      if (waiting.has(userId)) return; // already due at the end of the window
      const at = last.get(userId);
      const now = o.now();
      if (at === undefined || now - at >= windowMs) {
        publish(userId);
        return;
      }
      waiting.add(userId);
      schedule(
        () => {
          waiting.delete(userId);
          publish(userId);
        },
        at + windowMs - now,
      );
      // Forget people whose window has long passed, so the map does not grow with every user ever seen.
      if (last.size > 10_000) for (const [u, t] of last) if (now - t >= windowMs) last.delete(u);
    },
  };
  return refresher;
}
