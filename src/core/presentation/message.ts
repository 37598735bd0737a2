/**
 * The neutral message model. `render` functions build these; the Slack layer turns them into Block Kit and the
 * console into text. Nothing here knows about either transport.
 *
 * Text comes in two kinds: plain strings (shown exactly as given, escaped by each renderer) and `Rich` strings
 * built with the `rich` tag, a small markup (*bold*, _italic_, `code`) whose interpolated values are escaped
 * so that user-supplied names can never become mentions or links (`<!channel>`, `<@U…>`) nor markup.
 *
 * mrkdwn has no escape for its markers, so a marker in user text is replaced by a look-alike (∗ ˍ ∼ ˋ) behind a
 * zero-width space: Slack shows the look-alike, and unescapeText (console, plain-text fallbacks) turns the pair
 * back into the character typed. An underscore inside a word stays as it is: Slack never formats inside
 * words, and snake_case names are common.
 */

import { STAND_IN } from "../words/user-text.js";

/** Rich text: Slack-style markup (*bold*, _italic_, `code`) whose user-supplied parts are already escaped. */
export class Rich {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** Escapes the three characters Slack treats as control characters in mrkdwn. */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const TYPED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(STAND_IN).map(([typed, standIn]) => [standIn, typed]),
);
const WORD = /[\p{L}\p{N}]/u;

/** Control characters other than line breaks and tabs, Unicode line separators and bidi overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A control character as its visible picture (U+2400 block: ␊ ␍ ␛ ␉), others as U+FFFD. */
function picture(c: string): string {
  const n = c.charCodeAt(0);
  if (n < 0x20) return String.fromCharCode(0x2400 + n);
  return n === 0x7f ? "\u2421" : "\ufffd";
}

/**
 * Text from arrays or users shown as it is, minus what could act on the reader's screen: escape sequences
 * (a terminal's colours, cursor, title), carriage returns that overwrite a line, bidi overrides that reorder
 * it. Line breaks and tabs stay.
 */
export function visibleControls(s: string): string {
  return s.replace(CONTROL, picture);
}

/**
 * Text for a one-line slot (a header, a table cell, a button label): line breaks and tabs become visible
 * pictures too, so a name can never start a row or a line of its own that reads as the bot's.
 */
export function singleLine(s: string): string {
  return s.replace(CONTROL_OR_BREAK, picture);
}

/** A table's rows with every cell made one line (see singleLine). */
export function singleLineRows(rows: readonly Record<string, string>[]): Record<string, string>[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, singleLine(v)])));
}

/** User text for markup: control characters escaped, markup markers replaced by their stand-ins. */
export function escapeUserText(s: string): string {
  return escapeText(visibleControls(s)).replace(/[*_~`]/g, (m, i: number, all: string) => {
    if (m === "_" && WORD.test(all.charAt(i - 1)) && WORD.test(all.charAt(i + 1))) return m;
    return STAND_IN[m] ?? m;
  });
}

/**
 * The bot's own text (errors, refusals, usage) as markup: its `code` spans stay code, while everything else is
 * escaped like user text, because such text carries user words (already passed through userText).
 */
export function botText(s: string): Rich {
  return new Rich(
    escapeText(visibleControls(s)).replace(/[*_~]/g, (m, i: number, all: string) => {
      if (m === "_" && WORD.test(all.charAt(i - 1)) && WORD.test(all.charAt(i + 1))) return m;
      return STAND_IN[m] ?? m;
    }),
  );
}

/** Tagged template for rich text: literal parts are markup, interpolated values are escaped unless Rich. */
export function rich(parts: TemplateStringsArray, ...values: unknown[]): Rich {
  let out = parts[0] ?? "";
  values.forEach((v, i) => {
    out += v instanceof Rich ? v.markup : escapeUserText(String(v));
    out += parts[i + 1] ?? "";
  });
  return new Rich(out);
}

/** Plain text made rich: escaped, no markup. */
export function plain(s: string): Rich {
  return new Rich(escapeUserText(s));
}

/** Joins rich fragments with a plain separator. */
export function joinRich(parts: readonly Rich[], sep = ""): Rich {
  return new Rich(parts.map((p) => p.markup).join(escapeText(sep)));
}

/** Reverses escapeUserText, for transports that show plain text (the console, notification fallbacks). */
export function unescapeText(s: string): string {
  return s
    .replace(/\u200b[\u2217\u02cd\u223c\u02cb]/g, (m) => TYPED[m] ?? m)
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export interface ConfirmDialog {
  title: string;
  text: string;
  confirm: string;
  deny: string;
}

export interface Button {
  /** Stable action id; the transport routes clicks by it. */
  actionId: string;
  label: string;
  /** Opaque value handed back on click (e.g. a pending-request id). Never user text. */
  value: string;
  style?: "primary" | "danger";
  confirm?: ConfirmDialog;
  /** A link the button opens (Slack still reports the click); https only. */
  url?: string;
}

/**
 * A text the person types beside the buttons, carried with their click (the name an eradication needs). Slack
 * shows a box above the buttons, so one click approves; a face without one asks when the click needs it.
 */
export interface TypedAnswer {
  label: string;
  placeholder: string;
}

export interface Field {
  label: string;
  value: Rich;
}

export interface TableColumn {
  key: string;
  label: string;
  align?: "left" | "right";
}

/**
 * A value as the array holds it, beside the text people read: sizes in bytes, ratios as numbers, times as ISO
 * 8601 text. Faces that carry data (MCP's structured content) give it; Slack and the console show the text.
 */
export type RawValue = string | number | boolean | null | readonly string[];

/**
 * A line chart a face may draw itself: the shared categories (times) and each series' value at every one,
 * with its title (the caption) and a summary in words (what a screen reader reads).
 */
export interface NativeChart {
  title: string;
  summary: string;
  categories: string[];
  series: { name: string; values: number[] }[];
  yLabel?: string;
}

/** The object a `show` answer is about: its name, and its fields as values and as shown, under the same keys. */
export interface ShownObject {
  name: string;
  values: Record<string, RawValue>;
  display: Record<string, string>;
}

export type Block =
  | { type: "header"; text: string }
  | { type: "section"; text: Rich }
  | { type: "fields"; fields: Field[] }
  | {
      type: "table";
      columns: TableColumn[];
      /** Cell values are plain text. */
      rows: Record<string, string>[];
      /** How many rows exist in all; when larger than rows.length the renderers say "showing N of M". */
      totalRows?: number;
      /** Each row's raw values keyed by column (one per row, in the same order), where the command has them. */
      values?: Record<string, RawValue>[];
    }
  | { type: "code"; text: string }
  | { type: "context"; text: Rich }
  | { type: "divider" }
  | { type: "actions"; buttons: Button[]; typed?: TypedAnswer }
  | {
      type: "image";
      title: string;
      altText: string;
      file: Attachment;
      /** The same data as charts a face may draw itself (src/core/presentation/chart/native.ts); the PNG stays for the others. */
      charts?: NativeChart[];
    };

/**
 * An attachment too large to hold in memory, already written to a temporary file (a listing streamed page by
 * page from the array); whoever sends or saves it removes the file.
 */
export interface SpooledFile {
  readonly kind: "spooled";
  readonly path: string;
  readonly bytes: number;
}

export function isSpooled(content: Attachment["content"]): content is SpooledFile {
  return typeof content === "object" && "kind" in content && content.kind === "spooled";
}

export interface Attachment {
  filename: string;
  title: string;
  contentType: "text/csv" | "image/png" | "text/plain" | "application/octet-stream";
  content: Uint8Array | string | SpooledFile;
}

/**
 * A form a face that shows forms may offer beside the answer (src/core/catalogue/form-offers.ts): a Create button, or with
 * `names` a Change menu of the listed objects. Faces without forms (the console) ignore it.
 */
export interface FormOffer {
  /** The changing command the form is for ("fs create"). */
  path: string;
  label: string;
  /** The array the list was read from, where the change would run. */
  array: string;
  names?: string[];
}

export interface Message {
  /** Plain-text fallback used in notifications and by clients that cannot show blocks. */
  text: string;
  blocks: Block[];
  /** Lookups default to ephemeral; changes announce in channel. */
  visibility?: "ephemeral" | "in_channel";
  /** Files that go with the message (full CSV of a long listing, a chart). */
  attachments?: Attachment[];
  /**
   * The message holds a secret shown once (a new access key's secret): only the requester sees it, it is never
   * announced in the channel, attached as a file, logged, or kept. Transports answer it privately or not at all.
   */
  secret?: true;
  /** Forms offered with the answer (Create, Change); only faces that show forms render them. */
  forms?: FormOffer[];
  /** The error code when the message answers a refused or failed request (the MCP face reports it as an error). */
  error?: string;
  /** A `show` answer's object as values (faces that carry data give it; the blocks show it). */
  object?: ShownObject;
  /** What the arrays could not list in a partial answer (REST 2.x 207); the blocks show each as a line. */
  partial?: PartialError[];
}

/** One error of a partial answer (REST 2.x 207), as the array gave it, with the array's name. */
export interface PartialError {
  array: string;
  context: string;
  message: string;
}

export function message(
  text: string,
  blocks: Block[],
  extra: Partial<Omit<Message, "text" | "blocks">> = {},
): Message {
  return { text, blocks, ...extra };
}

/**
 * An error as a message: escaped, so nothing the user typed can become a mention, with the bot's own `code`
 * spans kept as code (user words in errors went through userText, so their backticks cannot pair with them).
 */
export function errorMessage(text: string): Message {
  return message(text, [{ type: "section", text: botText(text) }], { visibility: "ephemeral" });
}
