/**
 * A YAML syntax error as one problem at the line to fix. The parser reports every error that follows from the
 * first one too (a tab in the indentation gave three, a broken flow list as many as the lines after it), and
 * places an unclosed quote at the end of the file; the person needs the first error, where it starts.
 */
import type { LineCounter, YAMLError } from "yaml";

/** The quote character an unclosed-quote error is about, if it is one. */
function unclosedQuote(e: YAMLError): '"' | "'" | undefined {
  if (e.code !== "MISSING_CHAR") return undefined;
  if (/closing "quote/.test(e.message)) return '"';
  if (/closing 'quote/.test(e.message)) return "'";
  return undefined;
}

/** The first line (up to `last`) that opens a `quote` and does not close it: where the quoted text begins. */
function openingLine(text: string, quote: string, last: number): { line: number; col: number } | undefined {
  const lines = text.split("\n");
  for (let i = 0; i < Math.min(last, lines.length); i++) {
    const line = lines[i] ?? "";
    let open = -1;
    let inOther = false;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c];
      if (open < 0 && !inOther && ch === "#" && (c === 0 || /\s/.test(line[c - 1] ?? ""))) break;
      if (ch === quote && !inOther) {
        // Inside double quotes a backslash escapes; a doubled single quote is one quote.
        if (open >= 0 && quote === '"' && line[c - 1] === "\\") continue;
        if (open >= 0 && quote === "'" && line[c + 1] === "'") {
          c++;
          continue;
        }
        open = open >= 0 ? -1 : c;
      } else if ((ch === '"' || ch === "'") && open < 0) inOther = !inOther;
    }
    if (open >= 0) return { line: i + 1, col: open + 1 };
  }
  return undefined;
}

export function yamlProblem(errors: readonly YAMLError[], text: string, counter: LineCounter): string {
  const first = [...errors].sort((a, b) => a.pos[0] - b.pos[0])[0];
  if (!first) return "the YAML cannot be read";
  const at = counter.linePos(first.pos[0]);
  const quote = unclosedQuote(first);
  const opened = quote ? openingLine(text, quote, at.line) : undefined;
  if (quote && opened)
    return `line ${opened.line}, column ${opened.col}: the quote ${quote} that starts here is never closed; close it`;
  return `line ${at.line}, column ${at.col}: ${first.message.split("\n")[0]}`;
}
