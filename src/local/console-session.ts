/**
 * One console session: the same pipeline Slack uses, driven by typed lines. `/array …` runs a command,
 * a number clicks the button shown with that number, `/as <user>` switches identity, prompts (typing a name
 * to approve an eradication, a secret a command needs) read the next line.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { consoleActor } from "../core/access/actors.js";
import type { AuditRecord } from "../core/audit/audit.js";
import type { Effect, Pipeline } from "../core/context/pipeline-types.js";
import { type Attachment, type Message, plain } from "../core/presentation/message.js";
import { redactCommandLine } from "../core/presentation/redact.js";
import { type AnswerDraft, answerBook } from "./console-answers.js";
import { renderText } from "./text-render.js";

export interface ConsoleIO {
  /** Prints one block of output. */
  write(text: string): void;
  /**
   * Asks for one line (prompts); undefined when input has ended. A `secret` answer is never printed back (not
   * echoed in piped mode, hidden while typed at a terminal) and kept out of the line history.
   */
  ask(question: string, opts?: { secret?: boolean }): Promise<string | undefined>;
  /**
   * Keeps an attachment somewhere the user can open it; returns a line saying where. A `transient` one (a
   * chart) is only for looking at while the session runs.
   */
  saveAttachment?(a: Attachment, how?: { transient?: boolean }): string;
  /**
   * Takes the secret of a message shown once instead of printing it and returns what to print in its place
   * (the console's output is not a terminal); absent, the secret is printed.
   */
  keepSecret?(secret: string): string;
}

/** Audit records as they are written, so the console can tell whether a line failed. */
export interface OutcomeLog {
  readonly records: readonly AuditRecord[];
}

export interface ConsoleSessionDeps {
  pipeline: Pipeline;
  io: ConsoleIO;
  outcomes: OutcomeLog;
  initialUser: string;
  /** Role names shown by /as and /whoami (demo users). */
  knownUsers?: Readonly<Record<string, string>>;
  channelId?: string;
  color?: boolean;
}

export interface LineResult {
  ok: boolean;
  quit?: boolean;
}

export interface ConsoleSession {
  readonly user: string;
  handleLine(line: string): Promise<LineResult>;
  /**
   * Shows effects no typed line caused, as an answer of their own named by `origin` (cards from before a
   * restart; an expired request's update, which shows no buttons).
   */
  show(effects: readonly Effect[], origin?: string): Promise<void>;
  /** Resolves once every late answer still awaited (a fan-out past its deadline) has been printed. */
  settled(): Promise<void>;
}

export const CONSOLE_HELP = [
  "Console commands:",
  "  /array <resource> <verb> …   run a command, e.g. /array fs list (try /array help)",
  "  1, 2, …                      click a button of the last answer; 3:1 clicks button 1 of answer 3",
  "  /as <user>                   act as another user (demo: alice admin, bob operator, carol viewer, dave admin)",
  "  /whoami                      who you are acting as",
  "  /help                        this text",
  "  /quit                        leave",
].join("\n");

export function createConsoleSession(deps: ConsoleSessionDeps): ConsoleSession {
  const { pipeline, io } = deps;
  const channelId = deps.channelId ?? "console";
  let user = deps.initialUser;
  const book = answerBook();
  let posted = 0;
  const awaiting = new Set<Promise<void>>();

  const actor = () => consoleActor(user, channelId, user);
  const describe = (name: string) => {
    const known = deps.knownUsers;
    const role = known && Object.hasOwn(known, name) ? known[name] : undefined;
    return role ? `${name} (${role})` : name;
  };

  const print = (shown: Message, prefix: string | undefined, { batch }: AnswerDraft) => {
    const msg = withoutSecret(shown, io.keepSecret);
    const save = io.saveAttachment;
    const rendered = renderText(msg, {
      color: deps.color ?? false,
      firstButton: batch.length + 1,
      ...(save
        ? {
            describeAttachment: (f) => describeAttachment(msg, f),
            describeImage: (a) => save(a, { transient: true }),
          }
        : {}),
    });
    batch.push(...rendered.buttons);
    io.write(prefix ? `${prefix}\n${rendered.text}` : rendered.text);
  };
  const describeAttachment = (msg: Message, filename: string) => {
    const a = msg.attachments?.find((x) => x.filename === filename);
    return a && io.saveAttachment ? io.saveAttachment(a) : `[attachment: ${filename}]`;
  };

  /** Prints what a dialog's check found; true when it voided the request. */
  const voided = async (recheck: Promise<Effect[]>, draft: AnswerDraft): Promise<boolean> => {
    const more = await recheck;
    if (more.length === 0) return false;
    await apply(more, draft);
    return true;
  };
  /** Prints effects into `draft`, the answer they belong to; the caller files its buttons. */
  const apply = async (effects: readonly Effect[], draft: AnswerDraft): Promise<void> => {
    for (const e of effects) {
      if (e.kind === "reply") {
        print(e.message, undefined, draft);
        // The console cannot edit what it printed: a late answer comes as a follow-up with every array in it.
        if (e.later) {
          const done = e.later.then((m) => {
            // More of the same answer, whose buttons it replaces; it does not take over bare numbers while
            // the person may be typing one for a later answer.
            const late = book.draft(draft.origin, draft.answer);
            print(m, "(answer updated: the late arrays have answered)", late);
            book.finish(late, false);
          });
          awaiting.add(done);
          void done.finally(() => awaiting.delete(done));
        }
      } else if (e.kind === "post") {
        print(e.message, `(posted in ${e.channelId})`, draft);
        if (e.trackPending)
          await pipeline.attachMessage(e.trackPending, { channelId: e.channelId, ts: `console-${++posted}` });
      } else if (e.kind === "update") print(e.message, "(message updated)", draft);
      // The check run while a dialog opens: the console asks nothing for a request that can no longer happen.
      else if (e.recheck && (await voided(e.recheck, draft))) continue;
      else if (e.kind === "secret") {
        const secrets: Record<string, string> = {};
        let answered = true;
        for (const f of e.fields) {
          const typed = f.file
            ? await askFile(io, f.label)
            : f.multiline
              ? await askLines(io, f.label)
              : await io.ask(`${f.label} (not shown, kept nowhere): `, { secret: true });
          if (typed === undefined || typed.trim() === "") {
            answered = false;
            break;
          }
          secrets[f.key] = typed;
        }
        if (!answered) {
          io.write("(no answer; nothing was done)");
          continue;
        }
        await apply(
          await pipeline.handleClick({ actionId: e.actionId, value: e.pendingId, actor: actor(), secrets }),
          draft,
        );
      } else {
        const typed = await io.ask(`${e.label}: `);
        if (typed === undefined) {
          io.write("(no answer; nothing was done)");
          continue;
        }
        await apply(
          await pipeline.handleClick({
            actionId: e.actionId,
            value: e.pendingId,
            actor: actor(),
            typedText: typed,
          }),
          draft,
        );
      }
    }
  };
  const answer = async (effects: readonly Effect[], draft: AnswerDraft, current: boolean) => {
    await apply(effects, draft);
    book.finish(draft, current);
  };

  /** Runs `work` and reports whether any audit record it produced is an error. */
  const tracked = async (work: () => Promise<void>): Promise<LineResult> => {
    const before = deps.outcomes.records.length;
    await work();
    return { ok: deps.outcomes.records.slice(before).every((r) => r.outcome === "ok") };
  };

  return {
    get user() {
      return user;
    },
    show: (effects, origin = "an earlier request") =>
      answer(
        effects,
        book.draft(origin),
        effects.some((e) => e.kind !== "update"),
      ),
    async settled() {
      while (awaiting.size > 0) await Promise.all([...awaiting]);
    },
    async handleLine(raw) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return { ok: true };
      const command = /^\/?array(\s+|$)/i.exec(line);
      if (command) {
        const text = line.slice(command[0].length);
        const draft = book.draft(`${user}'s ${redactCommandLine(line)}`);
        return tracked(async () =>
          answer(await pipeline.handleCommand({ text, actor: actor() }), draft, true),
        );
      }
      const click = book.resolve(line);
      if (click) {
        if (!click.ok) {
          io.write(click.message);
          return { ok: false };
        }
        const { button } = click;
        io.write(book.describeClick(click));
        return tracked(async () =>
          answer(
            await pipeline.handleClick({ actionId: button.actionId, value: button.value, actor: actor() }),
            book.draft(click.answer.origin, click.answer),
            true,
          ),
        );
      }
      const [word, ...rest] = line.split(/\s+/);
      switch (word?.toLowerCase()) {
        case "/as": {
          const next = rest[0];
          if (!next) {
            io.write("Usage: /as <user>");
            return { ok: false };
          }
          // A prototype name (`constructor`, `__proto__`) is nobody, with or without a cast: it must never become a
          // user id that some lookup keyed by users turns into a property of Object.prototype.
          if (next in Object.prototype || next === "__proto__") {
            io.write(`"${next}" cannot be a user name; pick another.`);
            return { ok: false };
          }
          // The demo has a fixed cast; anyone else is nobody.
          const known = deps.knownUsers;
          if (known && !Object.hasOwn(known, next)) {
            io.write(`There is no user "${next}" here; pick one of ${Object.keys(known).join(", ")}.`);
            return { ok: false };
          }
          user = next;
          io.write(`You are now ${describe(user)}.`);
          return { ok: true };
        }
        case "/whoami":
          io.write(`You are ${describe(user)}.`);
          return { ok: true };
        case "/help":
          io.write(CONSOLE_HELP);
          return { ok: true };
        case "/quit":
        case "/exit":
          return { ok: true, quit: true };
        default:
          io.write(
            `I don't know "${line}". Commands start with /array; type /help for the console commands.`,
          );
          return { ok: false };
      }
    },
  };
}

/** A message shown once, its secret (the code block, by the commands' convention) handed to `keep` instead. */
function withoutSecret(msg: Message, keep: ConsoleIO["keepSecret"]): Message {
  if (!msg.secret || !keep) return msg;
  return {
    ...msg,
    blocks: msg.blocks.map((b) => (b.type === "code" ? { type: "context", text: plain(keep(b.text)) } : b)),
  };
}

/**
 * A secret file (a keytab): a path to it on this machine, read here and passed on as base64, or its base64
 * pasted (wrapped as `base64` writes it, then an empty line). Either way it is not echoed and kept nowhere.
 */
async function askFile(io: ConsoleIO, label: string): Promise<string | undefined> {
  const first = await io.ask(
    `${label} (a path to the file, or its base64 then an empty line; not shown, kept nowhere): `,
    { secret: true },
  );
  const path = first?.trim() ?? "";
  if (/^(\/|\.{1,2}\/|~\/)/.test(path)) {
    try {
      return (await readFile(path.replace(/^~(?=\/)/, homedir()))).toString("base64");
    } catch {
      // Base64 may start with "/" too: only a line that cannot be base64 is a path that was not found.
      if (!/^[A-Za-z0-9+/=]+$/.test(path)) {
        io.write(`(cannot read ${path}; nothing was done)`);
        return undefined;
      }
    }
  }
  return first === undefined || path === "" ? first : askLines(io, label, [first]);
}

/**
 * A multi-line secret (a PEM private key) read line by line until an empty line, since one console line cannot
 * hold it; each line is read like any secret (not echoed, not kept in history) and joined with newlines.
 */
async function askLines(io: ConsoleIO, label: string, read: string[] = []): Promise<string | undefined> {
  const lines: string[] = [...read];
  for (;;) {
    const prompt =
      lines.length === 0 ? `${label} (paste it, then an empty line; not shown, kept nowhere): ` : "";
    const line = await io.ask(prompt, { secret: true });
    if (line === undefined) return lines.length === 0 ? undefined : lines.join("\n");
    if (line.trim() === "") return lines.join("\n");
    lines.push(line);
  }
}
