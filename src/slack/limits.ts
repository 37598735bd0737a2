/**
 * Slack's Block Kit limits (reference/slack-platform.md §4–5) and the text helpers that keep output inside
 * them. Cutting never splits an HTML entity (`&amp;`) or a surrogate pair, so cut text still renders.
 */

export const LIMITS = {
  blocksPerMessage: 50,
  blocksPerView: 100,
  sectionText: 3_000,
  fieldsPerSection: 10,
  fieldText: 2_000,
  headerText: 150,
  contextText: 3_000,
  contextElements: 10,
  buttonText: 75,
  actionId: 255,
  /** Slack allows 2,000; ours are pending-request ids, so anything longer is a bug, not data. */
  buttonValue: 255,
  elementsPerActions: 25,
  tableRows: 100,
  tableColumns: 20,
  /** data_visualization blocks in one message (Slack draws at most two). */
  chartsPerMessage: 2,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** Slack recommends at most 4,000 characters of top-level (notification) text. */
  fallbackText: 4_000,
  /** `msg_blocks_too_long` fires near 13.2k characters in all (bolt-js #2509): keep a margin. */
  messageTextBudget: 12_000,
  viewTextBudget: 24_000,
  /** Our own cap for one preformatted block, like a section's text. */
  codeText: 3_000,
  modalTitle: 24,
  modalSubmit: 24,
  privateMetadata: 3_000,
  inputLabel: 2_000,
  inputPlaceholder: 150,
} as const;

/** Cuts `s` to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${safeCut(s, max - 1)}…`;
}

/** The longest prefix of `s` of at most `max` chars that ends neither inside an entity nor a surrogate pair. */
export function safeCut(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = Math.max(0, max);
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const amp = s.lastIndexOf("&", end - 1);
  if (amp !== -1 && amp >= end - 6) {
    const semi = s.indexOf(";", amp);
    if (semi === -1 || semi >= end) end = amp;
  }
  return s.slice(0, end);
}

/** Splits text into chunks of at most `max` chars, preferring line breaks, then spaces. */
export function splitText(s: string, max: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length > max) {
    const window = safeCut(rest, max);
    let cut = window.lastIndexOf("\n");
    if (cut < max / 2) cut = window.lastIndexOf(" ");
    if (cut < max / 2) cut = window.length;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[\n ]/, "");
  }
  if (rest.length > 0) out.push(rest);
  return out;
}
