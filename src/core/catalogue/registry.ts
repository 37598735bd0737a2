/**
 * The command registry, built once at start-up from commands/index.ts. Building checks the definitions and
 * reports every problem in one error, so a bad definition stops the process before anyone can type a command.
 *
 * Command paths: a resource's name is one or more words ("fs", "snmp manager", "replica-link bucket"), so a
 * command is its full path of words, `<resource words…> <verb>`, like wrangler's full-path definitions. The id
 * joins the words with dots ("snmp.manager.create"); `commandPath(id)` is the one way to show it.
 */
import type { z } from "zod";
import { InternalError, UserFacingError } from "../../errors.js";
import { RESERVED_KEYS } from "../words/bind-args.js";
import { commandId, commandPath } from "../words/command-path.js";
import { didYouMean, suggest } from "../words/suggest.js";
import { userText } from "../words/user-text.js";
import type { CommandDefinition, ResourceDefinition } from "./define-command.js";
import { checkEndpoints } from "./endpoint-checks.js";
import { checkGateClasses } from "./gate-classes.js";

export interface CommandEntry {
  /** "fs.resize", "snmp.manager.create": stable, used by audit records, pending requests and metrics. */
  id: string;
  /** "fs resize", "snmp manager create": what people type after /array. */
  path: string;
  resource: ResourceDefinition;
  command: CommandDefinition;
}

export interface Registry {
  readonly resources: readonly ResourceDefinition[];
  /** The resource for a name or alias (words separated by spaces), or undefined. */
  resource(phrase: string): ResourceDefinition | undefined;
  /** The resource named by the longest run of leading `words`, and how many words it took. */
  match(words: readonly string[]): { resource: ResourceDefinition; words: number } | undefined;
  /** The command for `<resource> <verb>`; unknown words raise a UserFacingError with suggestions. */
  find(resourcePhrase: string, verb: string | undefined): CommandEntry;
  byId(id: string): CommandEntry | undefined;
  all(): readonly CommandEntry[];
}

/** Words the pipeline handles itself. */
const BUILT_IN_WORDS = new Set(["help"]);
const WORD_RE = /^[a-z][a-z0-9-]*$/;
/** The longest resource phrase, in words. */
const MAX_WORDS = 4;

export { commandId, commandPath };

/**
 * What a resource typed with no verb runs, the same rule for every resource: its everyday read (its declared
 * default, else list, show or status) when that read changes nothing and needs no argument; otherwise nothing,
 * and the person gets the resource's help, listing its verbs.
 */
export function verbAlone(resource: ResourceDefinition): string | undefined {
  const runsBare = (verb: string) => {
    const c = resource.commands.find((x) => x.verb === verb);
    return c !== undefined && c.impact === undefined && c.args.safeParse({}).success;
  };
  const candidates = [...(resource.defaultVerb ? [resource.defaultVerb] : []), "list", "show", "status"];
  return candidates.find(runsBare);
}

/**
 * `partial`: the resources are a subset of the catalogue (a test's own registry), so a configured class that none
 * of them uses is not a defect; every other check still runs.
 */
export function createRegistry(
  resources: readonly ResourceDefinition[],
  opts: { partial?: boolean } = {},
): Registry {
  const classProblems = checkGateClasses(resources).filter(
    (p) => !(opts.partial && p.includes("protects nothing")),
  );
  // A test's own registry may hold commands that send nothing real; what they do declare is still checked.
  const endpointProblems = checkEndpoints(resources).filter(
    (p) => !(opts.partial && p.includes("declares no endpoints")),
  );
  const problems = [...checkDefinitions(resources), ...classProblems, ...endpointProblems];
  if (problems.length > 0) {
    throw new InternalError("REGISTRY_INVALID", `Invalid command definitions:\n- ${problems.join("\n- ")}`, {
      details: { problems },
    });
  }
  const byPhrase = new Map<string, ResourceDefinition>();
  for (const r of resources) for (const w of [r.name, ...(r.aliases ?? [])]) byPhrase.set(w, r);
  const entries: CommandEntry[] = resources.flatMap((r) =>
    r.commands.map((c) => {
      const id = commandId(r.name, c.verb);
      return { id, path: commandPath(id), resource: r, command: c };
    }),
  );
  const byId = new Map(entries.map((e) => [e.id, e]));
  // The words of a verb another one replaced (`virtual-host create` for `add`) still reach the one that stays.
  const replacedBy = new Map(
    entries.flatMap((e) => (e.command.replaces ?? []).map((id) => [id, e] as const)),
  );

  const match = (words: readonly string[]) => {
    for (let n = Math.min(MAX_WORDS, words.length); n > 0; n--) {
      const resource = byPhrase.get(words.slice(0, n).join(" ").toLowerCase());
      if (resource) return { resource, words: n };
    }
    return undefined;
  };

  return {
    resources,
    resource: (phrase) => byPhrase.get(phrase.toLowerCase().trim().split(/\s+/).join(" ")),
    match,
    byId: (id) => byId.get(id),
    all: () => entries,
    find(resourcePhrase, verb) {
      const resource = byPhrase.get(resourcePhrase.toLowerCase());
      if (!resource) throw unknownResource(resourcePhrase, byPhrase, resources);
      const verbs = resource.commands.map((c) => c.verb);
      if (verb === undefined) verb = verbAlone(resource);
      if (verb === undefined) {
        throw new UserFacingError(
          "MISSING_VERB",
          `What should I do with ${resource.name}? One of: ${verbs.join(", ")}. Example: \`/array ${resource.name} ${verbs[0] ?? ""}\``,
        );
      }
      const id = commandId(resource.name, verb.toLowerCase());
      const entry = byId.get(id) ?? replacedBy.get(id);
      if (!entry) {
        // "snmp managr": the typo may be in the second word of a longer noun rather than in a verb.
        const longer = [...byPhrase.keys()].filter((p) => p.startsWith(`${resource.name} `));
        const hits = [
          ...suggest(verb, verbs).map((h) => `${resource.name} ${h}`),
          ...suggest(`${resource.name} ${verb.toLowerCase()}`, longer),
        ];
        throw new UserFacingError(
          "UNKNOWN_VERB",
          `${quotedWord(verb) === "That" ? `That is not a ${resource.name} command.` : `\`${resource.name} ${userText(verb)}\` is not a command.`}${didYouMean(hits)}\n` +
            `${resource.name} commands: ${verbs.join(", ")}. Type \`/array help ${resource.name}\` for details.`,
          { suggestions: hits },
        );
      }
      return entry;
    },
  };
}

/**
 * An unknown word as the answer may quote it: a word the way nouns and verbs are written. Anything else (a JSON
 * body typed where a command goes, a URL with credentials) is not echoed: an answer is kept in chat history.
 */
function quotedWord(typed: string): string {
  const data = typed.trim() === "" || typed.length > 60 || /[{}[\]"]|:\/\/|@|=/.test(typed);
  return data ? "That" : `\`${userText(typed)}\``;
}

/** Suggestions compare the typed words with each phrase of the same length, and the first word alone. */
function unknownResource(
  typed: string,
  byPhrase: ReadonlyMap<string, ResourceDefinition>,
  resources: readonly ResourceDefinition[],
): UserFacingError {
  const phrases = [...byPhrase.keys(), ...BUILT_IN_WORDS];
  const words = typed.toLowerCase().split(/\s+/);
  const first = words[0] ?? "";
  const hits = [
    ...suggest(typed, phrases),
    ...suggest(
      first,
      phrases.map((p) => p.split(" ")[0] ?? p),
    ).flatMap((w) => phrases.filter((p) => p === w || p.startsWith(`${w} `))),
  ];
  // Aliases name the same resource: suggest each resource once, by its name.
  const unique = [...new Set(hits.map((h) => byPhrase.get(h)?.name ?? h))].slice(0, 4);
  const count = resources.length;
  return new UserFacingError(
    "UNKNOWN_RESOURCE",
    `${quotedWord(typed)} is not something I know.${didYouMean(unique)}\n` +
      `I know ${count} resources; type \`/array help\` for the list by area.`,
    { suggestions: unique },
  );
}

/** Every problem with the definitions, as readable lines. */
export function checkDefinitions(resources: readonly ResourceDefinition[]): string[] {
  const problems: string[] = [];
  const phrases = new Map<string, string>();
  for (const r of resources) {
    for (const phrase of [r.name, ...(r.aliases ?? [])]) {
      const words = phrase.split(" ");
      if (words.length > MAX_WORDS) problems.push(`resource "${phrase}" has more than ${MAX_WORDS} words`);
      for (const w of words) {
        if (!WORD_RE.test(w))
          problems.push(`resource word "${w}" must be lower-case letters, digits and dashes`);
      }
      if (BUILT_IN_WORDS.has(words[0] ?? "")) problems.push(`resource word "${phrase}" is reserved`);
      const owner = phrases.get(phrase);
      if (owner !== undefined)
        problems.push(`resource word "${phrase}" is used by both "${owner}" and "${r.name}"`);
      phrases.set(phrase, r.name);
    }
    const verbs = new Set<string>();
    for (const c of r.commands) problems.push(...checkCommand(r.name, c, verbs, r.argsAfterNoun === true));
    if (r.defaultVerb !== undefined && !verbs.has(r.defaultVerb)) {
      problems.push(`${r.name}: default verb "${r.defaultVerb}" is not one of its commands`);
    }
    if (r.commands.length === 0) problems.push(`${r.name}: has no commands`);
  }
  // A resource whose words continue another's ("snmp" and "snmp manager") must not have a verb equal to the
  // next word, or `snmp manager` would be ambiguous.
  for (const r of resources) {
    for (const c of r.commands) {
      const longer = `${r.name} ${c.verb}`;
      if (phrases.has(longer))
        problems.push(`${commandId(r.name, c.verb)}: clashes with resource "${longer}"`);
    }
  }
  return problems;
}

function checkCommand(
  resource: string,
  c: CommandDefinition,
  verbs: Set<string>,
  argsAfterNoun = false,
): string[] {
  const problems: string[] = [];
  const id = commandId(resource, c.verb);
  if (!WORD_RE.test(c.verb)) problems.push(`${id}: verb must be lower-case letters, digits and dashes`);
  if (verbs.has(c.verb)) problems.push(`${id}: defined more than once`);
  verbs.add(c.verb);
  // Secrets are asked at the confirmation a pending request has; a command without impact has none.
  if (c.secrets && !c.impact) problems.push(`${id}: asks for secrets but has no impact to confirm`);
  // An `args` getter builds its schema on first use (the catalogue's generic verbs): reading it here would build
  // all of them at start; checkArgKeys over the whole registry checks those in the tests instead.
  if (typeof Object.getOwnPropertyDescriptor(c, "args")?.get !== "function")
    problems.push(...argKeyProblems(id, c));
  if (c.destructive && !c.impact) problems.push(`${id}: a destructive command needs an impact function`);
  // One send path: a change plans and the pipeline sends its plan; only reads run code of their own.
  if (c.impact && c.run) problems.push(`${id}: a command with an impact plans its change; it has no run`);
  if (!c.impact && !c.run) problems.push(`${id}: a read needs a run`);
  if (!c.impact && (c.result || c.fill)) problems.push(`${id}: result and fill belong to a change's impact`);
  if (c.examples.length === 0) problems.push(`${id}: needs at least one example`);
  const prefix = `${resource} ${c.verb}`;
  // `history fs builds`: a resource whose next words are its arguments is shown without its verb.
  const starts = argsAfterNoun ? [prefix, resource] : [prefix];
  for (const ex of c.examples) {
    const words = ex.trim().split(/\s+/).join(" ").toLowerCase();
    if (!starts.some((p) => words === p || words.startsWith(`${p} `)))
      problems.push(`${id}: example "${ex}" does not start with "${prefix}"`);
  }
  return problems;
}

/** Positional keys that are not arguments, and arguments that clash with the global options. */
function argKeyProblems(id: string, c: CommandDefinition): string[] {
  const problems: string[] = [];
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
  return problems;
}

/**
 * The argument checks of every command, building every schema the registry defers: a test runs it over the
 * whole registry, as start-up runs it over the schemas it already holds.
 */
export function checkArgKeys(entries: readonly CommandEntry[]): string[] {
  return entries.flatMap((e) => argKeyProblems(e.id, e.command));
}
