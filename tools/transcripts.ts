/**
 * The docs' console transcripts, produced by real console runs (issue 43: nine claims of the docs had drifted
 * from what the console prints). A Markdown block between
 *   <!-- transcript:start <name> … -->   and   <!-- transcript:end -->
 * is the piped output of `npm start` fed `docs/transcripts/<name>.txt` (its first line may be `# args: …`, the
 * options after `npm start --`; the other lines are typed as they are, prompt answers included).
 * `npm run docs:transcripts` rewrites the blocks; test/tools/docs-transcripts.test.ts runs each again and fails
 * when the committed block differs from the fresh run beyond times, dates, figures and ids (masked).
 */
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { main } from "../src/main.js";

export const ROOT = join(import.meta.dirname, "..", import.meta.dirname.includes("/dist/") ? ".." : "");
/** The files whose transcripts are generated. */
export const TRANSCRIPT_DOCS = [
  "README.md",
  "docs/console.md",
  "docs/change-control.md",
  "docs/on-call-2x.md",
] as const;

export interface TranscriptBlock {
  doc: string;
  name: string;
  /** The block's text as committed. */
  text: string;
  /** Where the text starts and ends in the document. */
  start: number;
  end: number;
}

const BLOCK = /<!-- transcript:start ([\w-]+)[^\n]*-->\n```text\n([\s\S]*?)\n?```\n<!-- transcript:end -->/g;

export function blocksOf(doc: string, markdown: string): TranscriptBlock[] {
  return [...markdown.matchAll(BLOCK)].map((m) => {
    const text = m[2] ?? "";
    const start = (m.index ?? 0) + m[0].indexOf("```text\n") + "```text\n".length;
    return { doc, name: m[1] ?? "", text, start, end: start + text.length };
  });
}

/** The input of a transcript: the options after `npm start --` and the lines typed. */
export function inputOf(name: string): { args: string[]; lines: string[] } {
  const raw = readFileSync(join(ROOT, "docs", "transcripts", `${name}.txt`), "utf8").replace(/\n$/, "");
  const lines = raw.split("\n");
  const first = /^# args:(.*)$/.exec(lines[0] ?? "");
  return {
    args: first ? (first[1] ?? "").trim().split(/\s+/).filter(Boolean) : [],
    lines: first ? lines.slice(1) : lines,
  };
}

/** What `npm start -- <args>` prints with `lines` piped in (the demo arrays, fresh). */
export async function runTranscript(name: string): Promise<string> {
  const { args, lines } = inputOf(name);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  stderr.resume();
  await main({
    argv: args,
    env: {},
    stdin: Readable.from([`${lines.join("\n")}\n`]),
    stdout,
    stderr,
    interactive: false,
    demoAsShipped: true,
  });
  // A secret shown once went to a file of its own (the output is a pipe): the run's, not the reader's to keep.
  for (const m of out.matchAll(/It is in (\S+), readable only by you/g))
    if (m[1]) rmSync(dirname(m[1]), { recursive: true, force: true });
  return out.trimEnd();
}

/**
 * Lines of a diagnosis that name what is busiest now, or a client that dominates now (the demo's load follows the
 * hour of day: the finding comes and goes with it), and the in-flight
 * transfer a replica link shows (the hour's snapshot is on its way or not): true, but not the same every hour.
 */
const VARYING_LINE =
  /^(Top clients by operations|Slowest clients|Busiest file systems|Busiest buckets|Hot (users|groups) of|\d+\. One client dominates)\b/;

/**
 * The transcript without what changes from run to run: times, dates and every figure (the demo follows the
 * clock), temporary paths, ids and keys; runs of spaces and of dashes (table widths follow the figures).
 */
export function masked(text: string): string {
  return (
    text
      .split("\n")
      .filter((line) => !VARYING_LINE.test(line))
      .join("\n")
      .replace(/, sending \S+ \d+%/g, "")
      .replace(/\/tmp\/[\w./-]+/g, "<path>")
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>")
      .replace(/\bPSFB[A-Z]{20,}\b/g, "<key>")
      .replace(/\d+/g, "#")
      .replace(/#(?:[.,:]#)+/g, "#")
      // A duration's units follow the clock too ("5h" at the hour, "5h 7m" after it).
      .replace(/#(?:d|h|m|s|ms)\b(?: #(?:d|h|m|s)\b)?/g, "<duration>")
      .replace(/-{2,}/g, "-")
      .replace(/[ \t]+/g, " ")
      .replace(/ +$/gm, "")
  );
}
