/**
 * Binds the words after `<resource> <verb>` to a command's argument schema: bare words fill positional keys in
 * order, `--key value` / `--key=value` fill options, `--flag` / `--no-flag` set switches. Which options are
 * switches is read from the schema, so `--nfs fs1` never swallows `fs1`.
 */

import type { z } from "zod";
import { type ErrorCode, UserFacingError } from "../../errors.js";
import type { CommandDefinition } from "../catalogue/define-command.js";
import { commandPath } from "./command-path.js";
import { isSwitch, keyToOption, optionToKey } from "./schema-introspect.js";
import { didYouMean, suggest } from "./suggest.js";
import type { Token } from "./tokenize.js";
import { usageLine } from "./usage.js";
import { userText } from "./user-text.js";

/** Options every command understands; command schemas may not reuse these keys. */
export const GLOBAL_OPTIONS = [
  "array",
  "dry-run",
  "public",
  "help",
  "where",
  "reason",
  "break-glass",
] as const;
export const RESERVED_KEYS = ["array", "dryRun", "public", "help", "where", "reason", "breakGlass"] as const;

export interface BoundArgs {
  /** Input for the command's zod schema. */
  raw: Record<string, unknown>;
  /** `--array` as typed. */
  array?: string;
  dryRun: boolean;
  /** `--public`: answer a lookup in the channel instead of only to the asker. */
  public: boolean;
  help: boolean;
  /** `--reason "…"`: why a change is asked for (approval rules may require one citing a ticket). */
  reason?: string;
  /** `--break-glass "…"`: run a change through a freeze, with the reason (src/core/change-control/). */
  breakGlass?: string;
  /** `--where`, and `--sort`/`--limit` for a command without its own: applied to the list it answers with. */
  view: { where?: string; sort?: string; limit?: string };
}

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

export function bindArguments(id: string, cmd: CommandDefinition, tokens: readonly Token[]): BoundArgs {
  // A Map, never the shape object: `--constructor` or `--to-string` must not find Object.prototype's members.
  const shape = new Map(Object.entries(cmd.args.shape as Record<string, z.ZodType>));
  const keys = [...shape.keys()];
  const positional = [...(cmd.positional ?? [])];
  const out: BoundArgs = { raw: {}, dryRun: false, public: false, help: false, view: {} };
  const seen = new Set<string>();
  const usage = () => `Usage: ${usageLine(id, cmd)}`;
  const fail = (code: ErrorCode, msg: string, suggestions: string[] = []): never => {
    throw new UserFacingError(code, `${msg}\n${usage()}`, { suggestions });
  };
  const set = (key: string, value: unknown, shown: string) => {
    if (seen.has(key)) fail("PARSE_DUPLICATE_OPTION", `${shown} is given more than once.`);
    seen.add(key);
    out.raw[key] = value;
  };

  let onlyPositionals = false;
  const bare: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as Token;
    if (onlyPositionals || tok.quoted || !tok.text.startsWith("--")) {
      bare.push(tok.text);
      continue;
    }
    if (tok.text === "--") {
      onlyPositionals = true;
      continue;
    }
    const eq = tok.text.indexOf("=");
    const name = (eq === -1 ? tok.text.slice(2) : tok.text.slice(2, eq)).toLowerCase();
    const inline = eq === -1 ? undefined : tok.text.slice(eq + 1);
    if (name === "dry-run" || name === "dry_run") {
      if (inline !== undefined) fail("PARSE_BAD_VALUE", "--dry-run takes no value.");
      out.dryRun = true;
      continue;
    }
    if (name === "public") {
      if (inline !== undefined) fail("PARSE_BAD_VALUE", "--public takes no value.");
      out.public = true;
      continue;
    }
    if (name === "help") {
      out.help = true;
      continue;
    }
    if (name === "reason" || name === "break-glass" || name === "break_glass") {
      const shown = name === "reason" ? "--reason" : "--break-glass";
      const value = inline ?? takeValue(tokens, i, shown, fail);
      if (inline === undefined) i++;
      const key = name === "reason" ? "reason" : "breakGlass";
      if (out[key] !== undefined) fail("PARSE_DUPLICATE_OPTION", `${shown} is given more than once.`);
      out[key] = value;
      continue;
    }
    if (name === "array") {
      const value = inline ?? takeValue(tokens, i, "--array", fail);
      if (inline === undefined) i++;
      if (out.array !== undefined) fail("PARSE_DUPLICATE_OPTION", "--array is given more than once.");
      out.array = value;
      continue;
    }
    const viewOption = name === "where" || ((name === "sort" || name === "limit") && !shape.has(name));
    if (viewOption) {
      const value = inline ?? takeValue(tokens, i, `--${name}`, fail);
      if (inline === undefined) i++;
      const key = name as keyof BoundArgs["view"];
      if (out.view[key] !== undefined) fail("PARSE_DUPLICATE_OPTION", `--${name} is given more than once.`);
      out.view[key] = value;
      continue;
    }
    const negated = name.startsWith("no-") && isSwitch(shape.get(optionToKey(name.slice(3))));
    const key = optionToKey(negated ? name.slice(3) : name);
    const schema = shape.get(key);
    if (schema === undefined) {
      const options = [...keys.map(keyToOption), ...GLOBAL_OPTIONS];
      const hits = suggest(name, options).map((o) => `--${o}`);
      fail(
        "PARSE_UNKNOWN_OPTION",
        `Unknown option --${userText(name)} for \`${commandPath(id)}\`.${didYouMean(hits)}`,
        hits,
      );
    }
    if (isSwitch(schema)) {
      if (negated) {
        if (inline !== undefined) fail("PARSE_BAD_VALUE", `--no-${name.slice(3)} takes no value.`);
        set(key, false, `--${name.slice(3)}`);
        continue;
      }
      if (inline === undefined) {
        set(key, true, `--${name}`);
        continue;
      }
      const word = inline.toLowerCase();
      if (!TRUE_WORDS.has(word) && !FALSE_WORDS.has(word)) {
        fail("PARSE_BAD_VALUE", `--${name} is a switch; give it no value, or true/false.`);
      }
      set(key, TRUE_WORDS.has(word), `--${name}`);
      continue;
    }
    const value = inline ?? takeValue(tokens, i, `--${name}`, fail);
    if (inline === undefined) i++;
    set(key, value, `--${name}`);
  }

  const free = positional.filter((k) => !seen.has(k));
  if (bare.length > free.length) {
    // Words after one that opens like JSON are most likely a body split at its blanks: never quoted back.
    if (bare.some((w) => /^\s*[[{]/.test(w)))
      fail(
        "PARSE_EXTRA_WORDS",
        'Unexpected words after a JSON value; a body with blanks goes in quotes: \'{"key": "value"}\'.',
      );
    const extra = bare.slice(free.length).map((w) => `\`${userText(w)}\``);
    fail("PARSE_EXTRA_WORDS", `Unexpected ${extra.length === 1 ? "word" : "words"} ${extra.join(" ")}.`);
  }
  bare.forEach((word, idx) => {
    const key = free[idx] as string;
    set(key, word, `<${keyToOption(key)}>`);
  });
  return out;
}

function takeValue(
  tokens: readonly Token[],
  i: number,
  shown: string,
  fail: (code: ErrorCode, msg: string) => never,
): string {
  const next = tokens[i + 1];
  if (next === undefined || (!next.quoted && next.text.startsWith("--"))) {
    return fail("PARSE_MISSING_VALUE", `${shown} needs a value.`);
  }
  return next.text;
}
