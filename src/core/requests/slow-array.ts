/**
 * One array that is slow to answer a read must not leave the person waiting in silence: past the fan-out
 * deadline the answer goes out saying the array is slow, and `later` carries the real answer (or its error) to
 * be edited in when it comes (Slack replaces the message; the console prints it and does not hold the next
 * command meanwhile).
 */
import { isUserFacing, toUserMessage } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { Runtime } from "../pipeline/runtime.js";
import { errorMessage, type Message, message, rich } from "../presentation/message.js";

/** `fan_out_deadline` when a configuration built in code leaves it out: how long a read waits for slow arrays. */
export const DEFAULT_FAN_OUT_DEADLINE_MS = 10_000;

/**
 * A deadline raced against an answer, ended as soon as the race is decided: a timer left running would keep
 * the race, and the answer it settled with, alive until it fires (at 100 commands/s and the 10 s deadline,
 * about a thousand answers held for nothing).
 */
export async function raceDeadline<T>(rt: Runtime, ms: number, answer: Promise<T>): Promise<T | undefined> {
  const timer = rt.deps.timer;
  if (timer === undefined) return raceTimeout(ms, answer);
  const ended = new AbortController();
  try {
    return await Promise.race([answer, timer(ms, ended.signal).then(() => undefined)]);
  } finally {
    ended.abort();
  }
}

/**
 * `raceDeadline` on the real clock: the timer is cleared directly, without the abort signal an injected timer
 * is told by (an AbortController and its listener for every command were a measurable part of a list's own
 * cost, issue 27). Undefined when the time ran out first.
 */
export async function raceTimeout<T>(ms: number, answer: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined).unref();
  });
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for `answer` up to the fan-out deadline. In time: its message (or its error, thrown as before). Late:
 * a "slow" message now and the answer later; the late promise never rejects (an error becomes its message).
 */
export async function withSlowNotice(
  rt: Runtime,
  array: string,
  answer: Promise<Message>,
  requestId: string,
  log: Logger,
): Promise<{ message: Message; later?: Promise<Message> }> {
  const deadlineMs = rt.deps.config.fan_out_deadline ?? DEFAULT_FAN_OUT_DEADLINE_MS;
  const settled = answer.then(
    (m) => ({ ok: true as const, m }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  const first = await raceDeadline(rt, deadlineMs, settled);
  if (first) {
    if (first.ok) return { message: first.m };
    throw first.err;
  }
  const secs = `${Number((deadlineMs / 1000).toFixed(1))} s`;
  const text = `${array} is slow: no answer within ${secs}. The answer is added here when it comes.`;
  const later = settled.then((r) => {
    if (r.ok) return r.m;
    if (!isUserFacing(r.err)) log.error({ err: r.err, requestId }, "late answer failed");
    return errorMessage(toUserMessage(r.err, requestId));
  });
  return {
    message: message(text, [{ type: "context", text: rich`⏳ ${text}` }], { visibility: "ephemeral" }),
    later,
  };
}
