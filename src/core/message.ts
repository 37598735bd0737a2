/**
 * The neutral message model. `render` functions build these; the Slack layer turns them into Block Kit and the
 * console into text. Nothing here knows about either transport.
 *
 * Text comes in two kinds: plain strings (shown exactly as given, escaped by each renderer) and `Rich` strings
 * built with the `rich` tag, a small markup (*bold*, _italic_, `code`) whose interpolated values are escaped
 * so that user-supplied names can never become mentions or links (`<!channel>`, `<@U…>`).
 */

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

/** Tagged template for rich text: literal parts are markup, interpolated values are escaped unless Rich. */
export function rich(parts: TemplateStringsArray, ...values: unknown[]): Rich {
  let out = parts[0] ?? "";
  values.forEach((v, i) => {
    out += v instanceof Rich ? v.markup : escapeText(String(v));
    out += parts[i + 1] ?? "";
  });
  return new Rich(out);
}

/** Plain text made rich: escaped, no markup. */
export function plain(s: string): Rich {
  return new Rich(escapeText(s));
}

/** Joins rich fragments with a plain separator. */
export function joinRich(parts: readonly Rich[], sep = ""): Rich {
  return new Rich(parts.map((p) => p.markup).join(escapeText(sep)));
}

/** Reverses escapeText, for transports that show plain text (the console). */
export function unescapeText(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
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
    }
  | { type: "code"; text: string }
  | { type: "context"; text: Rich }
  | { type: "divider" }
  | { type: "actions"; buttons: Button[] }
  | { type: "image"; title: string; altText: string; file: Attachment };

export interface Attachment {
  filename: string;
  title: string;
  contentType: "text/csv" | "image/png" | "text/plain";
  content: Uint8Array | string;
}

export interface Message {
  /** Plain-text fallback used in notifications and by clients that cannot show blocks. */
  text: string;
  blocks: Block[];
  /** Lookups default to ephemeral; changes announce in channel. */
  visibility?: "ephemeral" | "in_channel";
  /** Files that go with the message (full CSV of a long listing, a chart). */
  attachments?: Attachment[];
}

export function message(
  text: string,
  blocks: Block[],
  extra: Partial<Omit<Message, "text" | "blocks">> = {},
): Message {
  return { text, blocks, ...extra };
}
