/**
 * A pipeline message as an MCP tool result: plain text for the model to read, and structured content (headings,
 * facts, every table as its rows keyed by column with the column labels and, where the command has them, each
 * row's raw values; a `show` answer's object as values) for a client to use as data. The
 * message already passed the pipeline's one redaction; it is redacted again here because this face also builds
 * results of its own (request_status), and the redaction is idempotent. An assistant is another system: a secret
 * shown once never reaches it (core/outbound.ts), and array text comes with Slack's markup escaped, so an agent
 * that posts it on gets no mention or link that an array name smuggled in.
 */
import type { Block, Message, RawValue, TableColumn } from "../core/presentation/message.js";
import { unescapeText } from "../core/presentation/message.js";
import { escapeSlackMarkup, withoutSecrets } from "../core/presentation/outbound.js";
import { redactMessage } from "../core/presentation/redact.js";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface StructuredTable {
  columns: TableColumn[];
  rows: Record<string, string>[];
  /** Each row's raw values keyed by column (sizes in bytes, times ISO 8601), where the command has them. */
  values?: Record<string, RawValue>[];
  totalRows: number;
}

/** Array text in a raw value is escaped like every other text an assistant gets. */
function escapedRaw(v: RawValue): RawValue {
  if (typeof v === "string") return escapeSlackMarkup(v);
  return Array.isArray(v) ? v.map(escapeSlackMarkup) : v;
}

const escapedRecord = (r: Readonly<Record<string, RawValue>>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, escapedRaw(v)]));

const plain = (markup: string) => escapeSlackMarkup(unescapeText(markup));

function blockText(b: Block): string | undefined {
  switch (b.type) {
    case "header":
      return escapeSlackMarkup(b.text);
    case "section":
    case "context":
      return plain(b.text.markup);
    case "fields":
      return b.fields.map((f) => `${f.label}: ${plain(f.value.markup)}`).join("\n");
    case "code":
      return escapeSlackMarkup(b.text);
    case "table": {
      const head = b.columns.map((c) => c.label).join(" | ");
      const rows = b.rows.map((r) => b.columns.map((c) => escapeSlackMarkup(r[c.key] ?? "")).join(" | "));
      const more =
        b.totalRows !== undefined && b.totalRows > b.rows.length
          ? [`(${b.rows.length} of ${b.totalRows} rows)`]
          : [];
      return [head, ...rows, ...more].join("\n");
    }
    case "image":
      return `[chart: ${b.title}]`;
    default:
      // Buttons belong to people in Slack: an assistant gets none.
      return undefined;
  }
}

export function toolResult(raw: Message, extra: Record<string, unknown> = {}): ToolResult {
  const [kept = raw] = withoutSecrets([raw]);
  const m = redactMessage(kept);
  const text =
    m.blocks.length > 0
      ? m.blocks
          .map(blockText)
          .filter((t) => t !== undefined)
          .join("\n")
      : m.text;
  const tables: StructuredTable[] = [];
  const facts: Record<string, string> = {};
  for (const b of m.blocks) {
    if (b.type === "table")
      tables.push({
        columns: b.columns,
        rows: b.rows.map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, escapeSlackMarkup(v)])),
        ),
        ...(b.values ? { values: b.values.map(escapedRecord) } : {}),
        totalRows: b.totalRows ?? b.rows.length,
      });
    if (b.type === "fields") for (const f of b.fields) facts[f.label] = plain(f.value.markup);
  }
  const title = m.blocks.find((b) => b.type === "header");
  return {
    content: [{ type: "text", text: m.blocks.length > 0 ? text : escapeSlackMarkup(text) }],
    structuredContent: {
      ...(title?.type === "header" ? { title: escapeSlackMarkup(title.text) } : {}),
      summary: plain(m.text),
      ...(Object.keys(facts).length > 0 ? { facts } : {}),
      ...(tables.length > 0 ? { tables } : {}),
      ...(m.object
        ? {
            object: {
              name: escapeSlackMarkup(m.object.name),
              values: escapedRecord(m.object.values),
              display: escapedRecord(m.object.display),
            },
          }
        : {}),
      ...(m.error ? { error: m.error } : {}),
      // A partial answer's errors (REST 2.x 207) as data beside the tables they did not reach.
      ...(m.partial?.length
        ? {
            partial: m.partial.map((e) => ({
              array: escapeSlackMarkup(e.array),
              context: escapeSlackMarkup(e.context),
              message: escapeSlackMarkup(e.message),
            })),
          }
        : {}),
      ...extra,
    },
    ...(m.error ? { isError: true } : {}),
  };
}
