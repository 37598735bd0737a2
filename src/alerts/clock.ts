import type { Clock, TimerHandle } from "./types.js";

/** Wall-clock time and real timers; timers do not keep the process alive on their own. */
export function systemClock(): Clock {
  const handles = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimer(fn, ms) {
      const id = next++;
      const t = setTimeout(() => {
        handles.delete(id);
        fn();
      }, ms);
      t.unref();
      handles.set(id, t);
      return { id };
    },
    clearTimer(h: TimerHandle) {
      const t = handles.get(h.id);
      if (t) clearTimeout(t);
      handles.delete(h.id);
    },
  };
}
