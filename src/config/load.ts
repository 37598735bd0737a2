/**
 * Loads the configuration: the YAML file named by `--config` or ARRAY_CHATOPS_CONFIG, validated with every
 * problem listed as `path: message`, then secrets resolved from the environment or files and the store's data
 * directory made absolute (data-dir.ts). This module and the section modules it calls are the only readers of
 * the environment.
 */
import { dirname, isAbsolute, join } from "node:path";
import { type Document, isMap, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { UserFacingError } from "../errors.js";
import { redactUrlCredentials } from "../redact.js";
import type { StoreConfig } from "./alerts.js";
import { type ArrayConfig, arrayConfigSchema, collectArrays, type ResolvedArrayConfig } from "./arrays.js";
import { resolveDataDir } from "./data-dir.js";
import { formatConfigIssues as formatIssuesOf } from "./issues.js";
import { type McpClientConfig, type McpConfig, resolveMcpTokens } from "./mcp.js";
import {
  type AppConfig,
  type ConfigIssue,
  configBaseSchema,
  configSchema,
  configSections,
  type ReferencedSections,
  referenceIssues,
} from "./schema.js";
import { loadSlackConfig, type SlackConfig } from "./slack.js";
import { resolveStoreSecrets, type StoreSecrets } from "./store.js";
import { yamlProblem } from "./yaml-errors.js";
import { withLines } from "./yaml-lines.js";

export type Env = Readonly<Record<string, string | undefined>>;

export interface LoadDeps {
  argv: readonly string[];
  env: Env;
  readFile: (path: string) => string;
}

export interface LoadedConfig {
  config: AppConfig;
  arrays: ResolvedArrayConfig[];
  /** Present when Slack credentials are in the environment: the bot then runs in Slack. */
  slack?: SlackConfig;
  /** Where the file came from ("demo" for the built-in console configuration). */
  source: string;
  /** The Redis store's password and CA file, when `store.kind` is redis. */
  storeSecrets?: StoreSecrets;
  /** MCP bearer token → client, when `mcp.enabled` (src/config/mcp.ts). */
  mcpTokens?: Map<string, McpClientConfig>;
}

export const CONFIG_ENV = "ARRAY_CHATOPS_CONFIG";

/** The config path from `--config <path>`, `--config=<path>` or the environment; undefined when none. */
export function configPathFrom(argv: readonly string[], env: Env): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a.startsWith("--config=")) return nonEmpty(a.slice("--config=".length), "--config");
    if (a === "--config") return nonEmpty(argv[i + 1], "--config");
  }
  const fromEnv = env[CONFIG_ENV]?.trim();
  return fromEnv ? fromEnv : undefined;
}

function nonEmpty(v: string | undefined, flag: string): string {
  if (!v || v.startsWith("--")) {
    throw new UserFacingError(
      "CONFIG_PATH_MISSING",
      `${flag} needs a file path, e.g. ${flag} config/bot.yml`,
    );
  }
  return v;
}

/** Reads and validates the configuration; undefined when no file is named (the caller runs the demo). */
export function loadConfig(deps: LoadDeps): LoadedConfig | undefined {
  const path = configPathFrom(deps.argv, deps.env);
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = deps.readFile(path);
  } catch (err) {
    const reason = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
    throw new UserFacingError(
      "CONFIG_UNREADABLE",
      `Cannot read the configuration file "${path}" (${reason}).`,
    );
  }
  return parseConfigText(text, {
    source: path,
    env: deps.env,
    readFile: deps.readFile,
    baseDir: dirname(path),
  });
}

export interface ParseDeps {
  source: string;
  env: Env;
  readFile: (path: string) => string;
  baseDir?: string;
}

/**
 * Validates YAML text as a full configuration and resolves its secrets. Every problem of the file comes in one
 * report: schema errors, references to arrays or tags that do not exist (checked on the sections that are
 * valid), and missing environment variables or unreadable files (for the arrays that are valid).
 */
export function parseConfigText(text: string, deps: ParseDeps): LoadedConfig {
  const { raw, doc, counter } = parseYaml(text, deps.source);
  const checked = checkConfig(raw);
  const problems = [...checked.problems];
  const { config, sections } = checked;
  const entries = sections.arrays ?? checked.validArrays;
  const resolved = entries
    ? collectArrays(entries, {
        env: deps.env,
        readFile: deps.readFile,
        ...(deps.baseDir === undefined ? {} : { baseDir: deps.baseDir }),
      })
    : { arrays: [], problems: [] };
  problems.push(...resolved.problems);
  const slack = collect(problems, () =>
    loadSlackConfig(deps.env, (sections.slack ?? {}) as Record<string, unknown>),
  );
  const store =
    sections.store &&
    collect(problems, () => resolveDataDir(sections.store as never, deps.env, deps.baseDir ?? "."));
  // Redis credentials come from the environment or a file, like array tokens; checked with everything else.
  const storeSecrets =
    store?.kind === "redis"
      ? collect(problems, () => resolveStoreSecrets(store, { ...deps, baseDir: deps.baseDir ?? "." }))
      : undefined;
  // MCP clients' tokens come from the environment or files, like array tokens; only when the face is on.
  const mcp = sections.mcp?.enabled
    ? resolveMcpTokens(sections.mcp, {
        env: deps.env,
        readFile: (p) => deps.readFile(isAbsolute(p) || !deps.baseDir ? p : join(deps.baseDir, p)),
      })
    : undefined;
  if (mcp) problems.push(...mcp.problems);
  if (problems.length > 0 || config === undefined)
    throw invalid(deps.source, withLines(problems, doc, counter));
  if (store !== undefined) config.store = store;
  return {
    config,
    arrays: resolved.arrays,
    ...(slack === undefined ? {} : { slack }),
    source: deps.source,
    ...(storeSecrets === undefined ? {} : { storeSecrets }),
    ...(mcp ? { mcpTokens: mcp.tokens } : {}),
  };
}

/** Runs a step whose refusal is a UserFacingError, adding its problems to the list instead of stopping. */
function collect<T>(problems: string[], step: () => T): T | undefined {
  try {
    return step();
  } catch (err) {
    if (!(err instanceof UserFacingError)) throw err;
    const listed = err.details["problems"];
    if (Array.isArray(listed)) problems.push(...listed.map(String));
    else problems.push(err.message);
    return undefined;
  }
}

type Sections = ReferencedSections & { slack?: unknown; store?: StoreConfig; mcp?: McpConfig };

/** Schema and reference problems in one pass; `sections` holds every section that passed its own schema. */
function checkConfig(raw: unknown): {
  config?: AppConfig;
  sections: Sections;
  /** When the arrays section failed: each entry that passed on its own (undefined where it did not). */
  validArrays?: (ArrayConfig | undefined)[];
  problems: string[];
} {
  const result = configBaseSchema.safeParse(raw);
  if (result.success) {
    const refs = referenceIssues(result.data).map(formatIssue);
    return { ...(refs.length === 0 ? { config: result.data } : {}), sections: result.data, problems: refs };
  }
  // A section failed its schema: check the references of the sections that are valid.
  const obj = (raw ?? {}) as Record<string, unknown>;
  const sections: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(configSections)) {
    const r = (schema as z.ZodType).safeParse(Object.hasOwn(obj, key) ? obj[key] : undefined);
    if (r.success) sections[key] = r.data;
  }
  const refs = referenceIssues(sections as ReferencedSections).map(formatIssue);
  const rawArrays = Object.hasOwn(obj, "arrays") ? obj["arrays"] : undefined;
  const validArrays = Array.isArray(rawArrays)
    ? rawArrays.map((a: unknown) => {
        const r = arrayConfigSchema.safeParse(a);
        return r.success ? r.data : undefined;
      })
    : undefined;
  return {
    sections: sections as Sections,
    ...(validArrays ? { validArrays } : {}),
    problems: [...formatConfigIssues(result.error), ...refs],
  };
}

function formatIssue(issue: ConfigIssue): string {
  return `${pathText(issue.path)}: ${issue.message}`;
}

function pathText(segments: readonly PropertyKey[]): string {
  let path = "";
  for (const seg of segments) {
    path += typeof seg === "number" ? `[${seg}]` : path === "" ? String(seg) : `.${String(seg)}`;
  }
  return path || "(root)";
}

function parseYaml(text: string, source: string): { raw: unknown; doc: Document; counter: LineCounter } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) throw invalid(source, [yamlProblem(doc.errors, text, lineCounter)]);
  if (!isMap(doc.contents)) throw invalid(source, ["the file must be a YAML mapping (key: value lines)"]);
  try {
    // Aliases resolve only here: an alias to no anchor, or an alias bomb, is the file's fault, not ours.
    return { raw: doc.toJS({ maxAliasCount: 100 }), doc, counter: lineCounter };
  } catch (err) {
    const why = err instanceof Error ? (err.message.split("\n")[0] ?? "") : String(err);
    throw invalid(source, [`the YAML cannot be read: ${why}`]);
  }
}

/** Validates an already-parsed object; every problem is listed as `path: message`. */
export function validateConfig(raw: unknown, source: string): AppConfig {
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  throw invalid(source, formatConfigIssues(result.error));
}

/**
 * Schema problems, each with its path and, for an unknown key, the key it may have meant; `schema` is the one
 * that found them (the whole file's unless a section was checked alone).
 */
export function formatConfigIssues(error: z.ZodError, schema: z.ZodType = configBaseSchema): string[] {
  return formatIssuesOf(error, schema);
}

function invalid(source: string, listed: string[]): UserFacingError {
  // A credential inside an address must not reach the terminal or the log through an error message.
  const problems = listed.map(redactUrlCredentials);
  return new UserFacingError(
    "CONFIG_INVALID",
    `The configuration in ${source} has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
      problems.map((p) => `  - ${p}`).join("\n"),
    { details: { problems } },
  );
}
