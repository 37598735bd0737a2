/**
 * Loads the configuration: the YAML file named by `--config` or ARRAY_CHATOPS_CONFIG, validated with every
 * problem listed as `path: message`, then secrets resolved from the environment or files and the store's data
 * directory made absolute (data-dir.ts). This module and the section modules it calls are the only readers of
 * the environment.
 */
import { dirname } from "node:path";
import { isMap, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { UserFacingError } from "../errors.js";
import { type ResolvedArrayConfig, resolveArrays } from "./arrays.js";
import { resolveDataDir } from "./data-dir.js";
import { type AppConfig, configSchema } from "./schema.js";
import { loadSlackConfig, type SlackConfig } from "./slack.js";

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

/** Validates YAML text as a full configuration and resolves its secrets. */
export function parseConfigText(text: string, deps: ParseDeps): LoadedConfig {
  const raw = parseYaml(text, deps.source);
  const config = validateConfig(raw, deps.source);
  const arrays = resolveArrays(config.arrays, {
    env: deps.env,
    readFile: deps.readFile,
    ...(deps.baseDir === undefined ? {} : { baseDir: deps.baseDir }),
  });
  const slack = loadSlackConfig(deps.env, config.slack ?? {});
  config.store = resolveDataDir(config.store, deps.env, deps.baseDir ?? ".");
  return { config, arrays, ...(slack === undefined ? {} : { slack }), source: deps.source };
}

function parseYaml(text: string, source: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((e) => {
      const pos = lineCounter.linePos(e.pos[0]);
      return `line ${pos.line}, column ${pos.col}: ${e.message.split("\n")[0]}`;
    });
    throw invalid(source, lines);
  }
  if (!isMap(doc.contents)) throw invalid(source, ["the file must be a YAML mapping (key: value lines)"]);
  try {
    // Aliases resolve only here: an alias to no anchor, or an alias bomb, is the file's fault, not ours.
    return doc.toJS({ maxAliasCount: 100 });
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

export function formatConfigIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    let path = "";
    for (const seg of issue.path) {
      path += typeof seg === "number" ? `[${seg}]` : path === "" ? String(seg) : `.${String(seg)}`;
    }
    const message =
      issue.code === "unrecognized_keys" ? `unknown key(s) ${issue.keys.join(", ")}` : issue.message;
    return `${path || "(root)"}: ${message}`;
  });
}

function invalid(source: string, problems: string[]): UserFacingError {
  return new UserFacingError(
    "CONFIG_INVALID",
    `The configuration in ${source} has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
      problems.map((p) => `  - ${p}`).join("\n"),
    { details: { problems } },
  );
}
