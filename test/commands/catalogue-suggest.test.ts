/** Did-you-mean covers every noun and every verb: a typo in any of them suggests the right one. */
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine } from "../../src/core/pipeline/parse.js";
import { UserFacingError } from "../../src/errors.js";

const registry = createRegistry(RESOURCES);

/** "manager" → "manageer" (a doubled letter): a typo one edit away that no real word is. */
const typo = (word: string) => `${word.slice(0, -1)}${word.at(-1)}${word.at(-1)}`;

function suggestionsFor(line: string): readonly string[] {
  try {
    parseCommandLine(line, registry);
  } catch (err) {
    expect(err).toBeInstanceOf(UserFacingError);
    return (err as UserFacingError).suggestions ?? [];
  }
  throw new Error(`"${line}" parsed`);
}

describe("did-you-mean", () => {
  const nouns = RESOURCES.map((r) => {
    const words = r.name.split(" ");
    const wrong = [...words.slice(0, -1), typo(words.at(-1) as string)].join(" ");
    return [r.name, wrong, r.commands[0]?.verb ?? "list"] as const;
  });
  test.each(nouns)("noun %s (typed %s)", (name, wrong, verb) => {
    const hits = suggestionsFor(`${wrong} ${verb}`);
    expect(
      hits.some((h) => h === name || h.startsWith(`${name} `) || registry.resource(h)?.name === name),
    ).toBe(true);
  });

  // A resource whose next words are its arguments (`history fs builds`) reads a misspelt verb as an argument.
  const verbs = registry
    .all()
    .filter((e) => e.resource.argsAfterNoun !== true)
    .map((e) => [e.path, e.resource.name, e.command.verb] as const);
  test.each(verbs)("verb %s", (_path, noun, verb) => {
    expect(suggestionsFor(`${noun} ${typo(verb)}`)).toContain(`${noun} ${verb}`);
  });
});
