import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { helpMessage } from "../../src/core/catalogue/help.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine, validateArgs } from "../../src/core/pipeline/parse.js";
import { tokenize } from "../../src/core/words/tokenize.js";
import { parseSize } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";

const registry = createRegistry(RESOURCES);

/** Runs the whole front half of the pipeline; returns "ok" or the error, never lets a non-user error escape. */
function attempt(text: string): "ok" | UserFacingError {
  try {
    const p = parseCommandLine(text, registry);
    if (p.kind === "help") helpMessage(registry, "admin", p.topic);
    else validateArgs(p.entry, p.bound.raw);
    return "ok";
  } catch (err) {
    if (err instanceof UserFacingError) return err;
    throw err;
  }
}

const vocabulary = fc.constantFrom(
  "fs",
  "snapshot",
  "arrays",
  "help",
  "list",
  "show",
  "create",
  "resize",
  "update",
  "destroy",
  "eradicate",
  "--array",
  "--array=all",
  "--dry-run",
  "--nfs",
  "--no-nfs",
  "--sort",
  "used-",
  "--limit",
  "10",
  "--name",
  "'prod*'",
  "“curly”",
  "‘x",
  '"',
  "500G",
  "1.5T",
  "2TiB",
  "<mailto:a@b|a@b>",
  "<http://x|x>",
  "<@U123>",
  "<!channel>",
  "&lt;",
  "--",
  "--help",
  "=",
  "--x=",
  "home",
  "a,b",
  // Members of Object.prototype, as option names and as values: never an internal error.
  "--constructor",
  "--__proto__",
  "--to-string",
  "--has-own-property",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
);

describe("the parser never crashes", () => {
  test("arbitrary unicode text: every failure is a UserFacingError", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const r = attempt(text);
        expect(r === "ok" || r instanceof UserFacingError).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test("command-shaped word soup: every failure is a UserFacingError with a message", () => {
    fc.assert(
      fc.property(fc.array(vocabulary, { maxLength: 12 }), fc.constantFrom(" ", "  ", "\t"), (words, sep) => {
        const r = attempt(words.join(sep));
        if (r !== "ok") expect(r.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });

  test("absurdly long text is refused politely", () => {
    const r = attempt(`fs list ${"x".repeat(10_000)}`);
    expect(r).toBeInstanceOf(UserFacingError);
  });
});

describe("tokenizer properties", () => {
  const word = fc.stringMatching(/^[A-Za-z0-9._*-]{1,12}$/);

  test("plain words separated by whitespace come back unchanged", () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 10 }), (words) => {
        expect(tokenize(words.join(" ")).map((t) => t.text)).toEqual(words);
      }),
    );
  });

  test("a double-quoted phrase is one token whatever the spaces inside", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (words) => {
        const phrase = words.join("  ");
        expect(tokenize(`show "${phrase}" --x`).map((t) => t.text)).toEqual(["show", phrase, "--x"]);
      }),
    );
  });
});

describe("tokenizer fast path", () => {
  test("a line without quotes splits as the quote-aware walk splits it", () => {
    // Any text, blanks of every kind and astral characters included; a trailing quoted word sends the same
    // words through the character walk, which must agree with the quote-free split word for word.
    const text = fc
      .array(
        fc.oneof(
          fc.string({ unit: "grapheme" }),
          fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "𝕏"),
        ),
      )
      .map((parts) => parts.join("").replace(/["'“”‘’„«]/g, ""));
    fc.assert(
      fc.property(text, (t) => {
        const walked = tokenize(`${t} "q"`);
        expect(walked.at(-1)).toEqual({ text: "q", quoted: true });
        expect(tokenize(t)).toEqual(walked.slice(0, -1));
      }),
      { numRuns: 500 },
    );
  });
});

describe("size properties", () => {
  test("n followed by G is n × 2^30 bytes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        expect(parseSize(`${n}G`)).toBe(n * 2 ** 30);
        expect(parseSize(`${n}GiB`)).toBe(n * 2 ** 30);
        expect(parseSize(`${n}GB`)).toBe(n * 2 ** 30);
      }),
    );
  });
});
