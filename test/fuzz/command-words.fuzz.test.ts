/**
 * Values become words by construction (issue 39): `wordOf` turns any text into one word that the tokenizer reads
 * back as exactly that text, or refuses it with a user-facing error naming the field; never a word that reads as
 * something else. Over arbitrary text full of straight and curly quotes of every kind, guillemets, backslashes,
 * line breaks, dashes and Slack markup, and through the real line builders: a submitted form's line (forms,
 * workflow steps and the Change menu build it) and an MCP tool's, parsed as the pipeline parses them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { formFor, formLine } from "../../src/core/catalogue/forms.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine } from "../../src/core/pipeline/parse.js";
import { tokenize, wordOf } from "../../src/core/words/tokenize.js";
import { UserFacingError } from "../../src/errors.js";
import { commandLine } from "../../src/mcp/tools.js";

const registry = createRegistry(RESOURCES);

const piece = fc.constantFrom(
  '"',
  "'",
  "“",
  "”",
  "‘",
  "’",
  "„",
  "«",
  "»",
  "\\",
  '\\"',
  "\n",
  "\r\n",
  "\t",
  " ",
  "\u00a0",
  "-",
  "--",
  "--nfs",
  "--array",
  "=",
  "<",
  ">",
  "&",
  "&amp;",
  "&lt;",
  "<!channel>",
  "<@U123>",
  "<http://x|y>",
  "\u200b",
  "\u2217",
  "{",
  "[",
  "x",
  "名前",
  "🚀",
);
/** Text built from hostile pieces and arbitrary characters. */
const text = fc
  .array(fc.oneof(piece, fc.string({ unit: "binary", maxLength: 3 })), { maxLength: 10 })
  .map((parts) => parts.join(""));

/** Closers of each quote wordOf may use: a value holding one of each cannot be carried. */
const CLOSER_SETS = [["'", "’", "‘"], ['"', "”", "“"], ["»"]];
const uncarriable = (s: string) => CLOSER_SETS.every((set) => set.some((c) => s.includes(c)));

/** wordOf's word, or the refusal it threw (always a UserFacingError naming the field). */
function tryWord(s: string, field = "--name"): string | UserFacingError {
  try {
    return wordOf(s, field);
  } catch (err) {
    if (!(err instanceof UserFacingError)) throw err;
    return err;
  }
}

describe("wordOf", () => {
  it("reads back as exactly the value, alone and between other words, or refuses it naming the field", () => {
    fc.assert(
      fc.property(text, text, (s, other) => {
        const w = tryWord(s);
        if (w instanceof UserFacingError) {
          expect(uncarriable(s)).toBe(true);
          expect(w.code).toBe("PARSE_BAD_VALUE");
          expect(w.message).toMatch(/^--name: /);
          return;
        }
        const alone = tokenize(w);
        expect(alone.map((t) => t.text)).toEqual([s]);
        // A value that could read as an option (or holds anything that is not a plain word) is quoted.
        if (s.startsWith("-") || s === "" || /\s/.test(s)) expect(alone[0]?.quoted).toBe(true);
        const o = tryWord(other);
        if (o instanceof UserFacingError) return;
        expect(tokenize(`a ${w} ${o} --b`).map((t) => t.text)).toEqual(["a", s, other, "--b"]);
      }),
      { numRuns: 2000 },
    );
  });

  it("the findings of issue 39 are single words", () => {
    for (const s of [
      "x’ --hard-limit --nfs --array ‘fb-lab-01",
      'a"b --nfs',
      'it\'s "x" --nfs',
      "«x» ’y‘ --nfs",
      "--hard-limit",
    ])
      expect(tokenize(wordOf(s, "name")), s).toEqual([{ text: s, quoted: true }]);
    expect(() => wordOf(`'"»`, "<name>")).toThrow(/^<name>: .*cannot be passed as one word/);
  });
});

/** The text fields and switches of a form, with arbitrary values for the texts. */
const FORMS = ["fs create", "fs update", "bucket create", "snapshot create", "banner set", "smtp set"];

describe("built lines", () => {
  it("a submitted form's line parses back to the values typed, or is refused naming the field", () => {
    for (const path of FORMS) {
      const form = formFor(registry, path);
      if (!form) throw new Error(`${path} has no form`);
      const texts = form.fields.filter((f) => f.kind === "text");
      const switches = form.fields.filter((f) => f.kind === "switch");
      fc.assert(
        fc.property(
          fc.array(text, { minLength: texts.length, maxLength: texts.length }),
          fc.array(fc.boolean(), { minLength: switches.length, maxLength: switches.length }),
          (values, ticks) => {
            const filled: Record<string, string | boolean> = {};
            texts.forEach((f, i) => {
              filled[f.key] = values[i] ?? "";
            });
            switches.forEach((f, i) => {
              filled[f.key] = ticks[i] ?? false;
            });
            let line: string;
            try {
              line = formLine(form, filled);
            } catch (err) {
              expect(err).toBeInstanceOf(UserFacingError);
              // In the form of a field error, so the modal shows it beside the field it names.
              expect((err as Error).message).toMatch(/^• (--[a-z0-9-]+|<[a-z0-9-]+>): /);
              expect(texts.some((f) => uncarriable(String(filled[f.key]).trim()))).toBe(true);
              return;
            }
            const parsed = parseCommandLine(line, registry, true);
            if (parsed.kind !== "command") throw new Error(`${line} parsed as help`);
            expect(parsed.entry.path).toBe(path);
            const want: Record<string, unknown> = {};
            for (const f of texts) {
              const v = String(filled[f.key]).trim();
              if (v !== "") want[f.key] = v;
            }
            for (const f of switches) if (filled[f.key] === true) want[f.key] = true;
            expect(parsed.bound.raw).toEqual(want);
            expect(parsed.bound.dryRun).toBe(false);
            expect(parsed.bound.array).toBeUndefined();
          },
        ),
        { numRuns: 150 },
      );
    }
  });

  it("an MCP tool's line parses back to its arguments, or is refused naming the argument", () => {
    const entry = registry.all().find((e) => e.path === "fs create");
    if (!entry) throw new Error("no fs create");
    fc.assert(
      fc.property(text, text, fc.boolean(), (name, size, nfs) => {
        let line: string;
        try {
          line = commandLine(entry, { name, size, nfs, array: "lab-1" });
        } catch (err) {
          expect(err).toBeInstanceOf(UserFacingError);
          expect(uncarriable(name) || uncarriable(size)).toBe(true);
          return;
        }
        const parsed = parseCommandLine(line, registry, true);
        if (parsed.kind !== "command") throw new Error(`${line} parsed as help`);
        expect(parsed.bound.raw).toEqual({ name, size, nfs });
        expect(parsed.bound.array).toBe("lab-1");
      }),
      { numRuns: 500 },
    );
  });
});
