/**
 * The `arrays:` part of the bot's YAML configuration: schema (validated once, all problems reported together
 * with their paths) and resolution of secrets (API token from an environment variable or a file, CA file).
 * Tokens are never accepted inline: a config file ends up in backups, tickets and screenshots.
 */
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { UserFacingError } from "../errors.js";
import { redactUrlCredentials } from "../redact.js";
import { KNOWN_VERSIONS } from "../rest-spec/versions.js";
import { apiClientSchema, type ResolvedApiClient, resolveApiClient } from "./api-client.js";
import { Secret } from "./secret.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const TAG = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const addressSchema = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: `"${redactUrlCredentials(value)}" is not a URL; write https://host or https://host:port`,
    });
    return z.NEVER;
  }
  const bare = (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash;
  const shown = redactUrlCredentials(value);
  if (url.username || url.password) {
    ctx.addIssue({
      code: "custom",
      message: `"${shown}" carries credentials; remove them from the address (the bot logs in with the API token from api_token_env or api_token_file)`,
    });
    return z.NEVER;
  }
  if (url.protocol !== "https:" || !bare) {
    ctx.addIssue({
      code: "custom",
      message: `"${shown}" must be https://host or https://host:port (no path: the client appends /api)`,
    });
    return z.NEVER;
  }
  return url.origin;
});

const rateSchema = z.strictObject({
  max_concurrent: z.int().min(1).max(256).default(8),
  min_spacing_ms: z.int().min(0).max(60_000).default(0),
  max_queue: z.int().min(0).max(100_000).default(1000),
});

const timeoutsSchema = z.strictObject({
  connect_ms: z.int().min(100).max(300_000).default(10_000),
  read_ms: z.int().min(100).max(3_600_000).default(30_000),
});

export const arrayConfigSchema = z
  .strictObject({
    name: z
      .string()
      .regex(NAME, "use letters, digits, '.', '_' or '-' (at most 63), starting with a letter or digit"),
    address: addressSchema,
    api_token_env: z.string().regex(ENV_NAME, "must be an environment variable name").optional(),
    api_token_file: z.string().min(1).optional(),
    api_token: z
      .never({
        error:
          "inline api_token is not allowed (config files get copied around); put the token in an environment " +
          "variable and name it in api_token_env, or in a file named by api_token_file",
      })
      .optional(),
    /** Log in as an OAuth2 API client instead of with an API token (api-client.ts). */
    api_client: apiClientSchema.optional(),
    ca_file: z.string().min(1).optional(),
    insecure: z.boolean().default(false),
    api_version: z
      .string()
      .refine((v) => (KNOWN_VERSIONS as readonly string[]).includes(v), {
        message: `must be one of ${KNOWN_VERSIONS.join(", ")}`,
      })
      .optional(),
    /**
     * Which REST generation or version to speak (docs/generations.md): auto (the newest 2.x both know, else the
     * newest 1.x), 1, 2, or a version. YAML reads `1.10` as the number 1.1, so a version must be quoted.
     */
    api: z
      .union([z.string(), z.number()])
      .transform((v, ctx) => {
        if (typeof v === "number" && !Number.isInteger(v)) {
          ctx.addIssue({
            code: "custom",
            message: `quote the version (api: "${v}"): YAML reads 1.10 as 1.1`,
          });
          return z.NEVER;
        }
        return String(v).trim();
      })
      .refine(
        (v) => v === "auto" || v === "1" || v === "2" || (KNOWN_VERSIONS as readonly string[]).includes(v),
        {
          message: `must be auto, 1, 2 or one of ${KNOWN_VERSIONS.join(", ")}`,
        },
      )
      .default("auto"),
    tags: z.array(z.string().regex(TAG, "tags are lower-case letters, digits, '_' or '-'")).default([]),
    // Sockets to one array. A bot's calls to one array are few at a time, and each TLS socket costs ~60-100 KiB
    // of native memory: 8 each allowed 1,600 sockets (~150 MiB) for 200 arrays in a burst. 4 leaves room for a call
    // or two held by a hung array while others go on; calls beyond them wait for a free socket (idle ones close
    // after 4 s). 5 and 6 were tried so that a file system change's five reads (REST 2.x) go at once: at 1,000
    // arrays the extra sockets took places from other arrays, and reads and approvals both got slower.
    // Figures: docs/benchmarks.md.
    connections: z.int().min(1).max(128).default(4),
    rate: rateSchema.default({ max_concurrent: 8, min_spacing_ms: 0, max_queue: 1000 }),
    timeouts: timeoutsSchema.default({ connect_ms: 10_000, read_ms: 30_000 }),
    /** Consecutive connection failures before the array is marked down and calls fail fast. */
    down_after_failures: z.int().min(1).max(100).default(3),
  })
  .superRefine((a, ctx) => {
    const sources = [a.api_token_env, a.api_token_file].filter((s) => s !== undefined).length;
    if (sources === 0 && a.api_client === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["api_token_env"],
        message: "give api_token_env or api_token_file (or api_client, to log in as an OAuth2 API client)",
      });
    } else if (sources > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["api_token_file"],
        message: "give only one of api_token_env and api_token_file",
      });
    } else if (sources === 1 && a.api_client !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["api_client"],
        message: "give either an API token (api_token_env or api_token_file) or api_client, not both",
      });
    }
    if (a.api_version !== undefined && a.api !== "auto") {
      ctx.addIssue({
        code: "custom",
        path: ["api"],
        message: "give only one of api and api_version (api: <version> pins as api_version did)",
      });
    }
    if (a.insecure && a.ca_file !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["insecure"],
        message: "insecure: true disables the ca_file check; remove one of them",
      });
    }
  });

/** The schema of the `arrays:` list. */
export const arraysConfigSchema = z
  .array(arrayConfigSchema)
  .min(1, "configure at least one array")
  .superRefine((arrays, ctx) => {
    const seen = new Map<string, number>();
    arrays.forEach((a, i) => {
      const key = a.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [i, "name"],
          message: `duplicate array name "${a.name}" (also arrays[${first}])`,
        });
      } else seen.set(key, i);
    });
  });

export type ArraysConfig = z.output<typeof arraysConfigSchema>;
export type ArrayConfig = z.output<typeof arrayConfigSchema>;

export interface ResolvedArrayConfig {
  name: string;
  /** `https://host[:port]`; the client appends /api. */
  origin: string;
  /** The API token; absent when the array is reached as an API client. */
  apiToken?: Secret;
  /** The OAuth2 API client the bot logs in as, instead of the API token. */
  apiClient?: ResolvedApiClient;
  /** The setting the credential came from, named when the array refuses it. */
  tokenSetting?: "api_token_env" | "api_token_file" | "api_client";
  /** PEM text of a private CA, from ca_file. */
  ca?: string;
  insecure: boolean;
  apiVersion?: string;
  /** The `api` setting: "auto", "1", "2" or a version; api_version, when given, pins instead. */
  api?: string;
  tags: readonly string[];
  connections: number;
  rate: { maxConcurrent: number; minSpacingMs: number; maxQueue: number };
  timeouts: { connectMs: number; readMs: number };
  downAfterFailures: number;
}

export interface ResolveDeps {
  env: Readonly<Record<string, string | undefined>>;
  readFile: (path: string) => string;
  /** Directory that relative file paths are resolved against (the config file's). */
  baseDir?: string;
}

/** Turns zod issues into lines such as `arrays[0].address: "http://x" must be https://…`. */
export function formatIssues(error: z.ZodError, prefix = "arrays"): string[] {
  return error.issues.map((issue) => {
    let path = prefix;
    for (const seg of issue.path) path += typeof seg === "number" ? `[${seg}]` : `.${String(seg)}`;
    return `${path}: ${issue.message}`;
  });
}

/** Validates the raw `arrays:` value; every problem is reported at once. */
export function parseArraysConfig(raw: unknown): ArraysConfig {
  const result = arraysConfigSchema.safeParse(raw);
  if (!result.success) throw configError(formatIssues(result.error));
  return result.data;
}

/** Reads each array's secrets. All missing variables and unreadable files are reported together. */
export function resolveArrays(parsed: ArraysConfig, deps: ResolveDeps): ResolvedArrayConfig[] {
  const { arrays, problems } = collectArrays(parsed, deps);
  if (problems.length > 0) throw configError(problems);
  return arrays;
}

/** Like resolveArrays, but hands the problems back so the loader can report them with everything else. */
export function collectArrays(
  parsed: readonly (ArrayConfig | undefined)[],
  deps: ResolveDeps,
): { arrays: ResolvedArrayConfig[]; problems: string[] } {
  const problems: string[] = [];
  const resolvePath = (p: string) => (isAbsolute(p) || !deps.baseDir ? p : join(deps.baseDir, p));
  const read = (where: string, path: string, what: string): string | undefined => {
    try {
      return deps.readFile(resolvePath(path));
    } catch (err) {
      const reason = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
      problems.push(`${where}: cannot read ${what} "${path}" (${reason})`);
      return undefined;
    }
  };
  // An entry that failed its schema is undefined here: its secrets are not looked at, its index is kept.
  const out = parsed.map((a, i): ResolvedArrayConfig | undefined => {
    if (a === undefined) return undefined;
    const where = `arrays[${i}]`;
    let token: string | undefined;
    if (a.api_token_env !== undefined) {
      // The variable's name is from the file: `constructor` must name an unset variable, not Object's.
      const name = a.api_token_env;
      const value = Object.hasOwn(deps.env, name) ? deps.env[name] : undefined;
      token = typeof value === "string" ? value.trim() : undefined;
      if (!token) problems.push(`${where}.api_token_env: environment variable ${a.api_token_env} is not set`);
    } else if (a.api_token_file !== undefined) {
      token = read(`${where}.api_token_file`, a.api_token_file, "token file")?.trim();
      if (token === "") problems.push(`${where}.api_token_file: "${a.api_token_file}" is empty`);
    }
    const client =
      a.api_client === undefined
        ? undefined
        : resolveApiClient(a.api_client, where, { env: deps.env, read }, problems);
    const ca = a.ca_file === undefined ? undefined : read(`${where}.ca_file`, a.ca_file, "CA file");
    if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) {
      problems.push(`${where}.ca_file: "${a.ca_file}" holds no PEM certificate`);
    }
    if (!token && !client) return undefined;
    return {
      name: a.name,
      origin: a.address,
      ...(client
        ? { apiClient: client, tokenSetting: "api_client" as const }
        : {
            apiToken: new Secret(token ?? ""),
            tokenSetting:
              a.api_token_env !== undefined ? ("api_token_env" as const) : ("api_token_file" as const),
          }),
      ...(ca === undefined ? {} : { ca }),
      insecure: a.insecure,
      ...(a.api_version === undefined ? {} : { apiVersion: a.api_version }),
      ...(a.api === "auto" ? {} : { api: a.api }),
      tags: a.tags,
      connections: a.connections,
      rate: {
        maxConcurrent: a.rate.max_concurrent,
        minSpacingMs: a.rate.min_spacing_ms,
        maxQueue: a.rate.max_queue,
      },
      timeouts: { connectMs: a.timeouts.connect_ms, readMs: a.timeouts.read_ms },
      downAfterFailures: a.down_after_failures,
    };
  });
  return { arrays: out.filter((a): a is ResolvedArrayConfig => a !== undefined), problems };
}

function configError(problems: string[]): UserFacingError {
  return new UserFacingError(
    "CONFIG_INVALID",
    `The array configuration has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
      problems.map((p) => `  - ${p}`).join("\n"),
    { details: { problems } },
  );
}
