import { UserFacingError } from "../../errors.js";

/**
 * Turns the text after `/array` into words. Slack delivers link markup and HTML entities, and phones type curly
 * quotes, so the text is cleaned first; then words split on whitespace, with straight or curly quotes grouping.
 */

/** A character any of the replaces below starts from: `<` of a link, `&` of an entity, a stand-in, a zero-width space. */
const MARKUP = /[<&\u200b\u2217\u02cd\u223c\u02cb]/;

/** `<mailto:a@b|a@b>` → `a@b`, `<http://x|x>` → `x`, `<http://x>` → `http://x`, entities decoded. */
export function stripSlackMarkup(text: string): string {
  // Nearly every line has none of it: six replaces over it each time were a fair part of parsing (issue 27).
  if (!MARKUP.test(text)) return text;
  const unlinked = text.replace(/<([^<>|]*)\|([^<>]*)>/g, "$2").replace(/<([^<>]*)>/g, "$1");
  return typedFromStandIns(unlinked.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"));
}

/** The look-alikes our answers show for * _ ~ ` in user text (see message.ts), as people paste them back. */
const STAND_INS: Readonly<Record<string, string>> = {
  "\u2217": "*",
  "\u02cd": "_",
  "\u223c": "~",
  "\u02cb": "`",
};

/** A name copied out of an answer and pasted into a command means what was originally typed. */
function typedFromStandIns(text: string): string {
  return text
    .replace(/\u200b?([\u2217\u02cd\u223c\u02cb])/g, (_m, c: string) => STAND_INS[c] ?? c)
    .replace(/\u200b/g, "");
}

const CLOSERS: Record<string, readonly string[]> = {
  '"': ['"', "”", "“"],
  "'": ["'", "’", "‘"],
  "“": ["”", '"', "“"],
  "”": ["”", '"', "“"],
  "‘": ["’", "'", "‘"],
  "’": ["’", "'", "‘"],
  "„": ["“", "”", '"'],
  "«": ["»"],
};

const WHITESPACE = /\s/;
/** Any character that opens a quote (the keys of CLOSERS). */
const QUOTE = /["'“”‘’„«]/;
const BLANKS = /\s+/;

export interface Token {
  text: string;
  /** True when any part was quoted: a quoted "--x" is a value, never an option. */
  quoted: boolean;
}

/** Splits into tokens; quotes may start anywhere in a word (`--name='prod*'`). Unclosed quotes are an error. */
export function tokenize(text: string): Token[] {
  // A line with no quote (nearly every one) is its words between blanks, without a walk over each character.
  if (!QUOTE.test(text))
    return text.split(BLANKS).flatMap((w) => (w === "" ? [] : [{ text: w, quoted: false }]));
  const tokens: Token[] = [];
  let cur = "";
  let inToken = false;
  let quoted = false;
  let i = 0;
  const chars = [...text];
  while (i < chars.length) {
    const ch = chars[i] ?? "";
    const closers = CLOSERS[ch];
    if (closers) {
      const start = i;
      i++;
      let body = "";
      while (i < chars.length && !closers.includes(chars[i] ?? "")) {
        body += chars[i];
        i++;
      }
      if (i >= chars.length) {
        throw new UserFacingError(
          "PARSE_UNCLOSED_QUOTE",
          `The quote ${ch} at position ${start + 1} is never closed. Close it, or quote the text with the other kind of quote.`,
        );
      }
      i++;
      cur += body;
      inToken = true;
      quoted = true;
      continue;
    }
    if (WHITESPACE.test(ch)) {
      if (inToken) tokens.push({ text: cur, quoted });
      cur = "";
      inToken = false;
      quoted = false;
      i++;
      continue;
    }
    cur += ch;
    inToken = true;
    i++;
  }
  if (inToken) tokens.push({ text: cur, quoted });
  return tokens;
}

/** What a bare word may not hold: a blank would split it, a quote (or `»`) would start or end a quoted part. */
const BARE_UNSAFE = /[\s"'“”‘’„«»]/;

/** Openers `wordOf` may use, each with a closer set of its own (the other openers share one of these three). */
const WORD_QUOTES: readonly (readonly [open: string, close: string])[] = [
  ["'", "'"],
  ['"', '"'],
  ["«", "»"],
];

/**
 * A value as one word of a command line that `tokenize` reads back as exactly that value (a property test holds
 * it to this over arbitrary text): bare when it has no blank, no quote and no leading dash, otherwise quoted with
 * the first quote none of whose closers the value holds. The tokenizer has no escapes, so a value holding a
 * closer of every quote (`'`, `"` and `»`, or their curly forms) cannot be carried and is refused, naming
 * `field`, rather than changed. Quoted, a value starting with `--` stays a value: a quoted word is never an option.
 */
export function wordOf(value: string, field: string): string {
  if (value !== "" && !BARE_UNSAFE.test(value) && !value.startsWith("-")) return value;
  for (const [open, close] of WORD_QUOTES) {
    const closers = CLOSERS[open] ?? [];
    if (!closers.some((c) => value.includes(c))) return `${open}${value}${close}`;
  }
  throw new UserFacingError(
    "PARSE_BAD_VALUE",
    `${field}: the value holds every kind of closing quote (' " and »), so it cannot be passed as one word. Nothing was run.`,
  );
}
