/**
 * Which button a typed number clicks. In Slack a click belongs to the message it is on; the console has only
 * numbers, so every answer that shows buttons gets an id, a bare number clicks a button of the answer printed
 * last, and `<answer>:<n>` clicks one of an earlier answer. A bare `1` typed after an answer without buttons
 * is refused: it used to click the newest buttons still shown, so a `1` after a command that ran at once
 * recovered a snapshot from an earlier `space trash` listing.
 */
import type { Button } from "../core/presentation/message.js";

export interface Answer {
  readonly id: number;
  /** Who typed which line, e.g. "alice's /array space trash": said with every click on it. */
  readonly origin: string;
  /** The buttons it shows now, numbered from 1 (a click's answer with buttons replaces them, as in Slack). */
  buttons: Button[];
}

/** One answer being printed: the buttons its effects showed, numbered in the order printed. */
export interface AnswerDraft {
  readonly origin: string;
  answer?: Answer;
  readonly batch: Button[];
}

export type Resolved =
  | { ok: true; answer: Answer; n: number; button: Button }
  | { ok: false; message: string };

/** Answers with buttons kept clickable; older ones are refused by id rather than kept forever. */
const KEEP = 100;

export interface AnswerBook {
  /** A new answer (a typed command, cards shown at start) or more of an existing one (a click on it). */
  draft(origin: string, answer?: Answer): AnswerDraft;
  /** Files the draft's buttons; `current` makes it the answer bare numbers click. */
  finish(draft: AnswerDraft, current: boolean): void;
  /** The button a typed `n` or `answer:n` names, or why there is none. */
  resolve(typed: string): Resolved | undefined;
  /** Words for the click about to run: which answer it acts on. */
  describeClick(r: { answer: Answer; n: number; button: Button }): string;
}

export function answerBook(): AnswerBook {
  const answers: Answer[] = [];
  let current: AnswerDraft | undefined;
  let ids = 0;

  const label = (a: Answer) => `answer ${a.id} (${a.origin})`;
  const range = (a: Answer) =>
    a.buttons.length === 1 ? `${a.id}:1` : `${a.id}:1 to ${a.id}:${a.buttons.length}`;

  return {
    draft: (origin, answer) => ({ origin, batch: [], ...(answer ? { answer } : {}) }),
    finish(draft, makeCurrent) {
      if (draft.batch.length > 0) {
        if (draft.answer) draft.answer.buttons = [...draft.batch];
        else {
          draft.answer = { id: ++ids, origin: draft.origin, buttons: [...draft.batch] };
          answers.push(draft.answer);
          if (answers.length > KEEP) answers.shift();
        }
        draft.batch.length = 0;
      }
      if (makeCurrent) current = draft;
    },
    resolve(typed) {
      const m = /^(?:(\d+):)?(\d+)$/.exec(typed);
      if (!m) return undefined;
      const n = Number(m[2]);
      let answer: Answer | undefined;
      if (m[1] !== undefined) {
        const id = Number(m[1]);
        answer = answers.find((a) => a.id === id);
        if (!answer)
          return {
            ok: false,
            message:
              id >= 1 && id <= ids
                ? `Answer ${id} is too far back to click now; run its command again.`
                : `There is no answer ${id}${ids > 0 ? `; the newest with buttons is ${ids}` : ""}.`,
          };
      } else {
        answer = current?.answer;
        if (!answer) {
          const newest = answers.at(-1);
          const last = current ? `The last answer (${current.origin}) has` : "No answer has";
          return {
            ok: false,
            message: newest
              ? `${last} no buttons, so ${typed} clicks nothing. For the buttons of ${label(newest)}, type ${range(newest)}.`
              : `${last} no buttons, so ${typed} clicks nothing.`,
          };
        }
      }
      const button = answer.buttons[n - 1];
      if (!button)
        return {
          ok: false,
          message: `There is no button ${n} on ${label(answer)}; its buttons are ${answer.buttons
            .map((b, i) => `${i + 1} ${b.label}`)
            .join(", ")}.`,
        };
      return { ok: true, answer, n, button };
    },
    describeClick: ({ answer, n, button }) => `(clicking [${n}] ${button.label} on ${label(answer)})`,
  };
}
