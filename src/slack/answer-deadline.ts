/**
 * Nothing a person typed or clicked goes unanswered. A read past the fan-out deadline already answers "slow"
 * (src/core/requests/slow-array.ts), but a change, a click, or any call queued behind the pool's bound on sockets
 * could hold its answer until the array's read time-out and retries ran out (minutes), and under load some never
 * answered before the person gave up. So the face bounds the wait itself: a command or click still working at
 * its answer deadline gets a notice saying the array did not answer in time, and its real answer follows.
 */
import type { Responder } from "./effects.js";

/** What a person sees when the bot has nothing to say yet; a change may still land, so they are told to check. */
export function lateNotice(ms: number): Parameters<Responder>[0] {
  const secs = `${Number((ms / 1000).toFixed(1))} s`;
  const text = `The array did not answer in time (nothing within ${secs}). Its answer is added here when it comes; a change may still be carried out, so check before trying again.`;
  return {
    response_type: "ephemeral",
    text,
    blocks: [{ type: "context", elements: [{ type: "mrkdwn", text: `⏳ ${text}` }] }],
  };
}

/**
 * Waits for `work`; if it has not settled within `ms`, calls `late` once (its failure is only logged by the
 * caller's `onError`). The notice goes out before the answer: `work` settles only after the notice was sent.
 */
export async function answerInTime<T>(
  work: Promise<T>,
  ms: number | undefined,
  late: () => Promise<void>,
  onError: (err: unknown) => void,
): Promise<T> {
  if (ms === undefined || ms <= 0) return work;
  let notice: Promise<void> | undefined;
  const timer = setTimeout(() => {
    notice = late().catch(onError);
  }, ms);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    await notice;
  }
}
