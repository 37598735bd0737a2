/**
 * The command line as typed, made safe to keep in audit records and pending requests: it is split into words the
 * way the parser splits it, then each word is redacted as a value: JSON (`/array api … '{"BIND_PASSWORD": …}'`)
 * is parsed and passed through `redact`, a value after a secret's flag (`--bind-password hunter2`: the flag takes
 * none, but the line is kept) goes, and URLs lose their credentials. A word that opens like JSON (`{` or `[`) but
 * does not parse goes with the rest of the line: typed without quotes in Slack, `{"password":"x"}` reaches us as
 * `{password:x}`, which no key-based redaction can read, and a body with blanks is split over the words after it.
 * A line that does not split (an unclosed quote) keeps only what comes before its first quote.
 */
import { REDACTED, redact, redactUrlCredentials } from "../../redact.js";
import { isSecretColumn, isSecretKey } from "../../rest-spec/secrets.js";
import type { Effect } from "../context/pipeline-types.js";
import { tokenize, wordOf } from "../words/tokenize.js";
import {
  type Attachment,
  type Block,
  type Message,
  type RawValue,
  Rich,
  type ShownObject,
} from "./message.js";

export { REDACTED, redact };

const FLAG = /^--?([A-Za-z0-9][A-Za-z0-9_.-]*)(?:=([\s\S]*))?$/;

function parsedJson(word: string): unknown {
  const t = word.trim();
  if (!/^[[{]/.test(t)) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** A word of a redacted line as the parser reads it back (wordOf); one no quoting carries is shown between «». */
function shownWord(word: string): string {
  try {
    return wordOf(word, "word");
  } catch {
    return `«${word}»`;
  }
}

/** Opens like JSON: a body typed without quotes, or with its quotes eaten by the tokenizer. */
const JSONISH = /^\s*[[{]/;

/**
 * Lines known to have nothing to redact (their redaction is the line itself): chat-ops repeats the same few lines,
 * and splitting each again for its audit record was a fair part of a list's own cost (issue 27). Only such clean
 * lines are kept, so nothing secret is held; the bound keeps odd input from growing it.
 */
const CLEAN_LINES = new Set<string>();
const CLEAN_LINES_MAX = 1000;

export function redactCommandLine(text: string): string {
  if (CLEAN_LINES.has(text)) return text;
  const out = redactLine(text);
  if (out === text && text.length <= 500) {
    if (CLEAN_LINES.size >= CLEAN_LINES_MAX) CLEAN_LINES.clear();
    CLEAN_LINES.add(text);
  }
  return out;
}

function redactLine(text: string): string {
  let words: { text: string; quoted: boolean }[];
  try {
    words = tokenize(text);
  } catch {
    const quote = text.search(/["'“”‘’„«]/);
    return `${redactUrlCredentials(text.slice(0, Math.max(quote, 0)))}${REDACTED}`;
  }
  const out: string[] = [];
  let afterSecretFlag = false;
  for (const w of words) {
    const json = parsedJson(w.text);
    if (json !== undefined) {
      out.push(shownWord(JSON.stringify(redact(json))));
      afterSecretFlag = false;
      continue;
    }
    if (JSONISH.test(w.text)) return [...out, REDACTED].join(" ");
    const flag = w.quoted && !w.text.startsWith("-") ? null : FLAG.exec(w.text);
    if (flag) {
      const secret = secretFlag(flag[1] ?? "");
      const inline = flag[2];
      if (inline !== undefined && !secret && JSONISH.test(inline)) {
        const inner = parsedJson(inline);
        if (inner === undefined) return [...out, `--${flag[1]}=${REDACTED}`].join(" ");
        out.push(shownWord(`--${flag[1]}=${JSON.stringify(redact(inner))}`));
      } else if (inline !== undefined)
        out.push(secret ? `--${flag[1]}=${REDACTED}` : shownWord(redactWord(w.text)));
      else out.push(w.text);
      afterSecretFlag = secret && flag[2] === undefined;
      continue;
    }
    out.push(afterSecretFlag ? REDACTED : shownWord(redactWord(w.text)));
    afterSecretFlag = false;
  }
  return out.join(" ");
}

/**
 * Arguments as typed (an audit record's, kept even when they did not validate): a text that opens like JSON but
 * does not parse goes whole, as in redactCommandLine, since no key-based redaction can read it (`{password:x}`).
 */
export function redactTypedArgs(args: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k in args) {
    const v = args[k];
    const safe = Array.isArray(v) ? v.map(typedValue) : typedValue(v);
    if (Array.isArray(v) ? (safe as unknown[]).some((x, i) => x !== v[i]) : safe !== v) {
      out ??= { ...args };
      out[k] = safe;
    }
  }
  return out ?? args;
}

/**
 * Whole, or after `--flag=`: a quoted part makes the tokenizer take `--body='{…}'` as one value, which the one
 * redaction does not read as JSON, so it is parsed and redacted by key here.
 */
function typedValue(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const flag = FLAG.exec(v);
  const inline = flag?.[2] ?? v;
  if (!JSONISH.test(inline)) return v;
  const json = parsedJson(inline);
  if (json === undefined) return REDACTED;
  return flag ? `--${flag[1]}=${JSON.stringify(redact(json))}` : v;
}

/** `--v2c-community` names the field v2c.community: secret when the name or any tail of it is a secret key. */
function secretFlag(name: string): boolean {
  const parts = name.split(/[-_.]/);
  return parts.some((_, i) => isSecretKey(parts.slice(i).join("_")));
}

/** A plain word: credentials in a URL masked, `key=value` pairs (query strings) by key. */
function redactWord(word: string): string {
  const url = redactUrlCredentials(word);
  const q = url.indexOf("?");
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq > 0 && isSecretKey(decodeURIComponentSafe(pair.slice(0, eq)))
        ? `${pair.slice(0, eq)}=${REDACTED}`
        : pair;
    });
  return `${url.slice(0, q)}?${pairs.join("&")}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A table row: a cell under a secret column loses its value, every other its URL credentials. A row with nothing
 * to redact (nearly every one) is kept as it is instead of copied cell by cell (issue 27).
 */
function redactRow(row: Readonly<Record<string, string>>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const k in row) {
    const v = row[k] as string;
    const safe = isSecretColumn(k) && v !== "" && v !== "–" ? REDACTED : redactUrlCredentials(v);
    if (safe !== v && out === undefined) out = { ...row };
    if (out !== undefined) out[k] = safe;
  }
  return out ?? (row as Record<string, string>);
}

/** A raw value under a key, as redactRow treats a cell: a secret key's goes, text loses URL credentials. */
function redactRaw(key: string, v: RawValue): RawValue {
  if (isSecretColumn(key) && v !== null && v !== "") return REDACTED;
  if (typeof v === "string") return redactUrlCredentials(v);
  return Array.isArray(v) ? v.map(redactUrlCredentials) : v;
}

function redactRawRecord<T extends RawValue>(rec: Readonly<Record<string, T>>): Record<string, RawValue> {
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, redactRaw(k, v)]));
}

function redactObject(o: ShownObject): ShownObject {
  return {
    name: redactUrlCredentials(o.name),
    values: redactRawRecord(o.values),
    display: redactRawRecord(o.display) as Record<string, string>,
  };
}

function richOrText<T extends Rich | string>(v: T): T {
  return (v instanceof Rich ? new Rich(redactUrlCredentials(v.markup)) : redactUrlCredentials(v)) as T;
}

function redactBlock(b: Block): Block {
  switch (b.type) {
    case "header":
    case "code":
      return { ...b, text: redactUrlCredentials(b.text) };
    case "section":
    case "context":
      return { ...b, text: richOrText(b.text) };
    case "fields":
      return { ...b, fields: b.fields.map((f) => ({ ...f, value: richOrText(f.value) })) };
    case "table":
      return {
        ...b,
        rows: b.rows.map(redactRow),
        ...(b.values ? { values: b.values.map(redactRawRecord) } : {}),
      };
    case "actions":
      return {
        ...b,
        buttons: b.buttons.map((x) =>
          x.confirm ? { ...x, confirm: { ...x.confirm, text: redactUrlCredentials(x.confirm.text) } } : x,
        ),
      };
    default:
      return b;
  }
}

function redactAttachment(a: Attachment): Attachment {
  return typeof a.content === "string" ? { ...a, content: redactUrlCredentials(a.content) } : a;
}

/**
 * The last step before a message leaves the pipeline (cards and their approvals-channel copies, dry runs, answers):
 * its values were redacted by key where they were parsed (planned requests, catalogue cells, the raw JSON view);
 * here every text, cell and text attachment loses URL credentials, and a cell under a secret column its value.
 */
export function redactMessage(m: Message): Message {
  return {
    ...m,
    text: redactUrlCredentials(m.text),
    blocks: m.blocks.map(redactBlock),
    ...(m.attachments ? { attachments: m.attachments.map(redactAttachment) } : {}),
    ...(m.object ? { object: redactObject(m.object) } : {}),
    // A Change menu shows the listed names: the same redaction as the table's cells.
    ...(m.forms
      ? { forms: m.forms.map((o) => (o.names ? { ...o, names: o.names.map(redactUrlCredentials) } : o)) }
      : {}),
    ...(m.partial
      ? {
          partial: m.partial.map((e) => ({
            ...e,
            context: redactUrlCredentials(e.context),
            message: redactUrlCredentials(e.message),
          })),
        }
      : {}),
  };
}

/** Every message an effect carries, through `redactMessage`. */
export function redactEffect(e: Effect): Effect {
  switch (e.kind) {
    case "reply":
      return {
        ...e,
        message: redactMessage(e.message),
        ...(e.later ? { later: e.later.then(redactMessage) } : {}),
      };
    case "post":
    case "update":
      return { ...e, message: redactMessage(e.message) };
    default:
      return e;
  }
}
