/**
 * The command registry, built once at start-up from commands/index.ts. Building checks the definitions and
 * reports every problem in one error, so a bad definition stops the process before anyone can type a command.
 */
import type { z } from "zod";
import { InternalError, UserFacingError } from "../errors.js";
import { RESERVED_KEYS } from "./bind-args.js";
import type { CommandDefinition, ResourceDefinition } from "./define-command.js";
import { checkGateClasses } from "./gate-classes.js";
import { userText } from "./message.js";
import { didYouMean, suggest } from "./suggest.js";

export interface CommandEntry {
  /** "fs.resize". */
  id: string;
  resource: ResourceDefinition;
  command: CommandDefinition;
}

export interface Registry {
  readonly resources: readonly ResourceDefinition[];
  /** The resource for a name or alias, or undefined. */
  resource(word: string): ResourceDefinition | undefined;
  /** The command for `<resource> <verb>`; unknown words raise a UserFacingError with suggestions. */
  find(resourceWord: string, verb: string | undefined): CommandEntry;
  byId(id: string): CommandEntry | undefined;
  all(): readonly CommandEntry[];
}

/** Words the pipeline handles itself. */
const BUILT_IN_WORDS = new Set(["help"]);
const WORD_RE = /^[a-z][a-z0-9-]*$/;

export function createRegistry(resources: readonly ResourceDefinition[]): Registry {
  const problems = [...checkDefinitions(resources), ...checkGateClasses(resources)];
  if (problems.length > 0) {
    throw new InternalError("REGISTRY_INVALID", `Invalid command definitions:\n- ${problems.join("\n- ")}`, {
      details: { problems },
    });
  }
  const byWord = new Map<string, ResourceDefinition>();
  for (const r of resources) for (const w of [r.name, ...(r.aliases ?? [])]) byWord.set(w, r);
  const entries: CommandEntry[] = resources.flatMap((r) =>
    r.commands.map((c) => ({ id: `${r.name}.${c.verb}`, resource: r, command: c })),
  );
  const byId = new Map(entries.map((e) => [e.id, e]));

  return {
    resources,
    resource: (word) => byWord.get(word.toLowerCase()),
    byId: (id) => byId.get(id),
    all: () => entries,
    find(resourceWord, verb) {
      const resource = byWord.get(resourceWord.toLowerCase());
      if (!resource) {
        const hits = suggest(resourceWord, [...byWord.keys(), ...BUILT_IN_WORDS]);
        throw new UserFacingError(
          "UNKNOWN_RESOURCE",
          `\`${userText(resourceWord)}\` is not something I know.${didYouMean(hits)}\n` +
            `Resources: ${resources.map((r) => r.name).join(", ")}. Type \`/array help\` for the list of commands.`,
          { suggestions: hits },
        );
      }
      const verbs = resource.commands.map((c) => c.verb);
      if (verb === undefined && resource.defaultVerb !== undefined) verb = resource.defaultVerb;
      if (verb === undefined) {
        throw new UserFacingError(
          "MISSING_VERB",
          `What should I do with ${resource.name}? One of: ${verbs.join(", ")}. Example: \`/array ${resource.name} ${verbs[0] ?? ""}\``,
        );
      }
      const entry = byId.get(`${resource.name}.${verb.toLowerCase()}`);
      if (!entry) {
        const hits = suggest(verb, verbs);
        throw new UserFacingError(
          "UNKNOWN_VERB",
          `\`${resource.name} ${userText(verb)}\` is not a command.${didYouMean(hits.map((h) => `${resource.name} ${h}`))}\n` +
            `${resource.name} commands: ${verbs.join(", ")}. Type \`/array help ${resource.name}\` for details.`,
          { suggestions: hits },
        );
      }
      return entry;
    },
  };
}

/** Every problem with the definitions, as readable lines. */
export function checkDefinitions(resources: readonly ResourceDefinition[]): string[] {
  const problems: string[] = [];
  const words = new Map<string, string>();
  for (const r of resources) {
    for (const w of [r.name, ...(r.aliases ?? [])]) {
      if (!WORD_RE.test(w))
        problems.push(`resource word "${w}" must be lower-case letters, digits and dashes`);
      if (BUILT_IN_WORDS.has(w)) problems.push(`resource word "${w}" is reserved`);
      const owner = words.get(w);
      if (owner !== undefined)
        problems.push(`resource word "${w}" is used by both "${owner}" and "${r.name}"`);
      words.set(w, r.name);
    }
    const verbs = new Set<string>();
    for (const c of r.commands) problems.push(...checkCommand(r.name, c, verbs));
    if (r.defaultVerb !== undefined && !verbs.has(r.defaultVerb)) {
      problems.push(`${r.name}: default verb "${r.defaultVerb}" is not one of its commands`);
    }
    if (r.commands.length === 0) problems.push(`${r.name}: has no commands`);
  }
  return problems;
}

function checkCommand(resource: string, c: CommandDefinition, verbs: Set<string>): string[] {
  const problems: string[] = [];
  const id = `${resource}.${c.verb}`;
  if (!WORD_RE.test(c.verb)) problems.push(`${id}: verb must be lower-case letters, digits and dashes`);
  if (verbs.has(c.verb)) problems.push(`${id}: defined more than once`);
  verbs.add(c.verb);
  const shape = c.args.shape as Record<string, z.ZodType>;
  const seen = new Set<string>();
  for (const key of c.positional ?? []) {
    if (!(key in shape)) problems.push(`${id}: positional key "${key}" is not in its args schema`);
    if (seen.has(key)) problems.push(`${id}: positional key "${key}" is listed twice`);
    seen.add(key);
  }
  for (const key of RESERVED_KEYS) {
    if (key in shape) problems.push(`${id}: argument "${key}" clashes with the global --${key} option`);
  }
  if (c.destructive && !c.impact) problems.push(`${id}: a destructive command needs an impact function`);
  if (c.examples.length === 0) problems.push(`${id}: needs at least one example`);
  for (const ex of c.examples) {
    const [res, verb] = ex.trim().split(/\s+/);
    if (res !== resource || verb !== c.verb)
      problems.push(`${id}: example "${ex}" does not start with "${resource} ${c.verb}"`);
  }
  return problems;
}
