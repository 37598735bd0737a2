import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine, validateArgs } from "../../src/core/pipeline/parse.js";
import { plain } from "../../src/core/presentation/message.js";
import { stripSlackMarkup, tokenize } from "../../src/core/words/tokenize.js";
import { UserFacingError } from "../../src/errors.js";

const registry = createRegistry(RESOURCES);

function parsed(text: string) {
  const p = parseCommandLine(text, registry);
  if (p.kind !== "command") throw new Error(`expected a command, got help for ${p.topic}`);
  return { id: p.entry.id, args: validateArgs(p.entry, p.bound.raw), bound: p.bound };
}

function failure(text: string): UserFacingError {
  try {
    const p = parseCommandLine(text, registry);
    if (p.kind === "command") validateArgs(p.entry, p.bound.raw);
  } catch (err) {
    expect(err).toBeInstanceOf(UserFacingError);
    return err as UserFacingError;
  }
  throw new Error(`"${text}" parsed without error`);
}

/** What Slack shows for our markup: entities decoded, stand-ins kept as they are. */
const unescapeEntities = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

describe("Slack markup and quoting", () => {
  test.each([
    ["<mailto:a@b.c|a@b.c>", "a@b.c"],
    ["<http://x.example|x.example>", "x.example"],
    ["<http://x.example>", "http://x.example"],
    ["a &lt;b&gt; &amp; c", "a <b> & c"],
  ])("%s → %s", (input, out) => {
    expect(stripSlackMarkup(input)).toBe(out);
  });

  test("a name pasted back from an answer means what was typed (look-alikes of * _ ~ ` undone)", () => {
    for (const name of ["prod*", "_tmp", "a~b", "x`y", "snake_case"]) {
      const shown = unescapeEntities(plain(name).markup);
      expect(stripSlackMarkup(shown)).toBe(name);
    }
  });

  test("straight and curly quotes group words; quotes may start mid-word", () => {
    expect(tokenize(`a "b c" ‘d e’ “f g” --name='x y'`).map((t) => t.text)).toEqual([
      "a",
      "b c",
      "d e",
      "f g",
      "--name=x y",
    ]);
  });

  test("an unclosed quote is a user error that says what to do", () => {
    const err = failure(`fs show "home`);
    expect(err.code).toBe("PARSE_UNCLOSED_QUOTE");
    expect(err.message).toMatch(/never closed/);
  });
});

describe("binding words to arguments", () => {
  test("positionals, sizes in binary units, switches", () => {
    const p = parsed("fs create projects 1.5T --nfs --hard-limit");
    expect(p.id).toBe("fs.create");
    expect(p.args).toMatchObject({ name: "projects", size: 1.5 * 2 ** 40, nfs: true, hardLimit: true });
  });

  test("--opt=value, --no-flag, kebab or snake case, resource aliases", () => {
    const p = parsed("filesystem update home --no-nfs --default_user_quota=50G --smb=true");
    expect(p.id).toBe("fs.update");
    expect(p.args).toMatchObject({ name: "home", nfs: false, smb: true, defaultUserQuota: 50 * 2 ** 30 });
  });

  test("a switch never swallows the next word", () => {
    const p = parsed("fs create --nfs projects 2T");
    expect(p.args).toMatchObject({ name: "projects", nfs: true, size: 2 * 2 ** 40 });
  });

  test("global options: --array (all forms) and --dry-run", () => {
    expect(parsed("fs list --array all").bound.array).toBe("all");
    expect(parsed("fs list --array=tag:prod").bound.array).toBe("tag:prod");
    expect(parsed("fs resize home 3T --dry-run").bound.dryRun).toBe(true);
  });

  test("sort keys take a trailing minus for descending", () => {
    expect(parsed("fs list --sort used-").args["sort"]).toEqual({
      key: "used",
      field: "space.virtual",
      descending: true,
    });
  });

  test("quoted patterns keep their stars; a quoted --word is a value", () => {
    expect(parsed(`fs list --name 'prod*'`).args["name"]).toBe("prod*");
    expect(parsed(`fs show "--odd"`).args["name"]).toBe("--odd");
  });

  test("help forms", () => {
    expect(parseCommandLine("", registry)).toEqual({ kind: "help" });
    expect(parseCommandLine("help fs", registry)).toEqual({ kind: "help", topic: "fs" });
    // A resource alone runs its everyday read when it has one (test/core/noun-alone.test.ts), else its help.
    expect(parsed("fs").id).toBe("fs.list");
    expect(parseCommandLine("api", registry)).toEqual({ kind: "help", topic: "api" });
    expect(parseCommandLine("fs resize --help", registry)).toEqual({ kind: "help", topic: "fs.resize" });
    expect(parsed("arrays").id).toBe("arrays.list");
  });
});

describe("failures are user errors with suggestions and the usage line", () => {
  test.each([
    ["fz list", "UNKNOWN_RESOURCE", /Did you mean `fs`/],
    ["fs lsit", "UNKNOWN_VERB", /Did you mean `fs list`/],
    ["fs list --sortt used", "PARSE_UNKNOWN_OPTION", /Did you mean `--sort`/],
    ["fs resize home", "INVALID_ARGUMENTS", /<size>: required/],
    ["fs resize home 12XB", "INVALID_ARGUMENTS", /not a size; sizes take binary units/],
    ["fs show a b", "PARSE_EXTRA_WORDS", /Unexpected word `b`/],
    ["fs list --limit", "PARSE_MISSING_VALUE", /--limit needs a value/],
    ["fs list --limit 0", "INVALID_ARGUMENTS", /whole number from 1/],
    ["fs list --sort colour", "INVALID_ARGUMENTS", /cannot sort by `colour`/],
    ["fs create x 1T --nfs=maybe", "PARSE_BAD_VALUE", /switch/],
    ["fs list --array a --array b", "PARSE_DUPLICATE_OPTION", /more than once/],
    ["fs show a,b", "INVALID_ARGUMENTS", /cannot contain a comma/],
  ])("%s", (text, code, message) => {
    const err = failure(text);
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  test("argument errors carry the usage line and an example", () => {
    const err = failure("fs resize home");
    expect(err.message).toContain("Usage: /array fs resize <name> <size> [--dry-run] [--array <name>]");
    expect(err.message).toContain("Example: /array fs resize projects 60T");
  });
});
