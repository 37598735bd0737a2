/**
 * A partial answer (REST 2.x 207): the array listed what it could and said, per context, what it could not.
 * The answer shows the items and one plain line per error, never drops them: in the blocks, the text, as data
 * (`Message.partial`) for the faces that carry it, and beside a list's CSV as a CSV of its own (the list's
 * columns are the items'; an error row would not fit them).
 */
import { type Attachment, type Message, type PartialError, rich } from "./message.js";
import { toCsv } from "./table.js";

/** At most this many lines; the rest are counted (a fleet of contexts each failing would drown the answer). */
const SHOWN = 10;

/** `m` with a line per error, once each (a listing walks pages, and every page may repeat them). */
export function withPartial(m: Message, errors: readonly PartialError[]): Message {
  if (errors.length === 0) return m;
  const seen = new Set<string>();
  const unique = errors.filter((e) => {
    const key = `${e.array}\u0000${e.context}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const lines = unique.map(
    (e) => `⚠ ${e.array} answered in part: ${e.context ? `${e.context}: ` : ""}${e.message}`,
  );
  const more = unique.length - SHOWN;
  return {
    ...m,
    text: `${m.text}\n${lines.join("\n")}`,
    blocks: [
      ...m.blocks,
      ...lines.slice(0, SHOWN).map((line) => ({ type: "context" as const, text: rich`${line}` })),
      ...(more > 0
        ? [{ type: "context" as const, text: rich`⚠ and ${more} more errors in the answer.` }]
        : []),
    ],
    partial: [...(m.partial ?? []), ...unique],
    ...(m.attachments?.some((a) => a.contentType === "text/csv")
      ? { attachments: [...m.attachments, errorsCsv(unique)] }
      : {}),
  };
}

const ERROR_COLUMNS = [
  { key: "array", label: "Array" },
  { key: "context", label: "Context" },
  { key: "message", label: "Error" },
];

function errorsCsv(errors: readonly PartialError[]): Attachment {
  return {
    filename: "partial-answer-errors.csv",
    title: "What the arrays could not list",
    contentType: "text/csv",
    content: toCsv(
      ERROR_COLUMNS,
      errors.map((e) => ({ ...e })),
    ),
  };
}
