/**
 * A hand-written command remains only where behaviour differs from the catalogue's generic verbs, and says why
 * in its first comment (issues 26 and 40): every file under commands/ that defines a command (outside the
 * catalogue's own generic verbs) opens with a comment holding "Hand-written because <reason>" (or "Hand-written,
 * not <the generic verb>, because <reason>"), the reason being a sentence of at least eight words. A comment that
 * only says what the command does gives no reason, and fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO, sourceFiles } from "./source-graph.js";

/** The catalogue's generic verbs are the data's own code, not hand-written commands. */
const GENERIC = "commands/catalogue/";
const MIN_WORDS = 8;

const defining = sourceFiles(["commands"]).filter(
  (f) =>
    !f.startsWith(GENERIC) && readFileSync(join(REPO, f), "utf8").match(/\bdefineCommand\s*[<(]/) !== null,
);

/** The file's opening comment as one line of prose (a JSDoc block or leading `//` lines); "" when none. */
function openingComment(source: string): string {
  const block = /^\/\*\*?([\s\S]*?)\*\//.exec(source);
  const text = block
    ? (block[1] ?? "").replace(/^\s*\*\s?/gm, "")
    : (/^(?:\/\/.*\n)+/.exec(source)?.[0] ?? "").replace(/^\/\/\s?/gm, "");
  return text.replace(/\s+/g, " ").trim();
}

/** The reason the comment gives for not being catalogue data, or undefined when it gives none worth the name. */
function reasonOf(comment: string): string | undefined {
  const m = /\bHand-written(?:, not [^,.]{3,60},)? because (.+?)(?:\.(?:\s|$)|$)/i.exec(comment);
  const reason = m?.[1]?.trim();
  return reason !== undefined && reason.split(/\s+/).length >= MIN_WORDS ? reason : undefined;
}

describe("hand-written commands", () => {
  test("the list is read from the repository, not typed here", () => {
    expect(defining).toContain("commands/fs/resize.ts");
    expect(defining.length).toBeGreaterThan(40);
  });

  test("the check tells a reason from a description", () => {
    expect(reasonOf(openingComment("/** `/array arrays`: the pool's health, one row per array. */\n"))).toBe(
      undefined,
    );
    expect(reasonOf("Hand-written because it is hand-written.")).toBe(undefined);
    expect(
      reasonOf(
        "`x list`. Hand-written, not the generic list, because it joins two endpoints into one row per object.",
      ),
    ).toBe("it joins two endpoints into one row per object");
    expect(
      reasonOf(
        openingComment(
          "// `x`: a thing.\n// Hand-written because it reads the bot's own store, not an array.\n",
        ),
      ),
    ).toBe("it reads the bot's own store, not an array");
  });

  test("each file that defines one says in its first comment why it is not catalogue data", () => {
    const silent = defining.filter(
      (f) => reasonOf(openingComment(readFileSync(join(REPO, f), "utf8"))) === undefined,
    );
    expect(silent).toEqual([]);
  });
});
