/**
 * From the text after `/array` to a validated command: clean and split the text, find the command (with
 * did-you-mean for typos), bind words to arguments, and validate them with the command's zod schema, once.
 * Every failure is a UserFacingError carrying the usage line.
 */
import { UserFacingError } from "../../errors.js";
import { type CommandEntry, type Registry, verbAlone } from "../catalogue/registry.js";
import { type BoundArgs, bindArguments } from "../words/bind-args.js";
import { keyToOption } from "../words/schema-introspect.js";
import { stripSlackMarkup, tokenize } from "../words/tokenize.js";
import { usageLine } from "../words/usage.js";

export type ParsedLine =
  | { kind: "help"; topic?: string }
  | { kind: "command"; entry: CommandEntry; bound: BoundArgs };

/** Longest text we accept; Slack caps slash-command text well below this. */
const MAX_TEXT = 4000;
/**
 * Longest line a face builds from JSON values (MCP, forms): room for a document option (an IAM trust policy of up
 * to 64 KiB) beside its words, which typed text never needs.
 */
const MAX_BUILT = 70_000;

/** `built`: the text came from wordOf's words, not from Slack, so Slack's markup is not cleaned from it. */
export function parseCommandLine(text: string, registry: Registry, built = false): ParsedLine {
  const max = built ? MAX_BUILT : MAX_TEXT;
  if (text.length > max) {
    throw new UserFacingError(
      "PARSE_TOO_LONG",
      `That command is ${text.length} characters long; the limit is ${max}.`,
    );
  }
  const tokens = tokenize(built ? text : stripSlackMarkup(text));
  const first = tokens[0];
  if (first === undefined) return { kind: "help" };
  const word = first.text.toLowerCase();
  if (word === "help" || word === "--help" || word === "-h") {
    const topic = tokens
      .slice(1, 6)
      .filter((t) => !t.text.startsWith("--"))
      .map((t) => t.text.toLowerCase())
      .join(" ");
    return topic ? { kind: "help", topic } : { kind: "help" };
  }
  // The command path: the longest run of leading bare words that names a resource, then the verb.
  const leading: string[] = [];
  for (const t of tokens) {
    if (t.quoted || t.text.startsWith("--")) break;
    leading.push(t.text);
  }
  const matched = registry.match(leading);
  const resource = matched?.resource;
  const used = matched?.words ?? 1;
  const second = tokens[used];
  // A resource whose next words are its arguments (`history fs builds`) takes a verb only when it is its own,
  // and runs its default verb with those words.
  const ownVerb = resource?.commands.some((c) => c.verb === second?.text.toLowerCase()) ?? false;
  const verbGiven =
    second !== undefined &&
    !second.quoted &&
    !second.text.startsWith("--") &&
    (resource?.argsAfterNoun !== true || ownVerb);
  const argsFollow =
    resource?.argsAfterNoun === true &&
    !verbGiven &&
    second !== undefined &&
    resource.defaultVerb !== undefined;
  if (resource && !verbGiven && !argsFollow && verbAlone(resource) === undefined)
    return { kind: "help", topic: resource.name };
  if (resource && second?.text.toLowerCase() === "help") return { kind: "help", topic: resource.name };
  const phrase = resource ? resource.name : unknownPhrase(leading);
  const entry = registry.find(
    matched
      ? tokens
          .slice(0, used)
          .map((t) => t.text)
          .join(" ")
      : phrase,
    verbGiven ? second.text : argsFollow ? resource?.defaultVerb : undefined,
  );
  const rest = tokens.slice(verbGiven ? used + 1 : used);
  const bound = bindArguments(entry.id, entry.command, rest);
  if (bound.help) return { kind: "help", topic: entry.id };
  return { kind: "command", entry, bound };
}

/** What to name in "`x` is not something I know": the first word, or two when the second looks like a noun. */
function unknownPhrase(leading: readonly string[]): string {
  return leading.slice(0, leading.length > 2 ? 2 : 1).join(" ");
}

/** Validates bound arguments with the command's schema; the output is what the command runs with. */
export function validateArgs(entry: CommandEntry, raw: Record<string, unknown>): Record<string, unknown> {
  const result = entry.command.args.safeParse(raw);
  if (result.success) return result.data as Record<string, unknown>;
  const positional = new Set<string>(entry.command.positional ?? []);
  const lines = result.error.issues.map((issue) => {
    const key = typeof issue.path[0] === "string" ? issue.path[0] : undefined;
    const shown =
      key === undefined
        ? "arguments"
        : positional.has(key)
          ? `<${keyToOption(key)}>`
          : `--${keyToOption(key)}`;
    const missing = key !== undefined && raw[key] === undefined;
    return `• ${shown}: ${missing ? "required" : issue.message}`;
  });
  const example = entry.command.examples[0];
  throw new UserFacingError(
    "INVALID_ARGUMENTS",
    `Invalid arguments for \`${entry.path}\`:\n${lines.join("\n")}\n` +
      `Usage: ${usageLine(entry.id, entry.command)}${example ? `\nExample: /array ${example}` : ""}`,
  );
}
