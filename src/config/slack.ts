/**
 * The `slack` section of the configuration: which transport, its secrets, and the knobs of the Slack layer.
 * Secrets come only from the environment (`slackSectionFromEnv`); the config loader validates the section
 * with `slackSectionSchema` together with the rest of the root schema.
 */
import { z } from "zod";
import { UserFacingError } from "../errors.js";

const port = z.coerce.number().int().min(0).max(65_535);

export const slackSectionSchema = z
  .object({
    /** Socket Mode (outbound only, the default) or HTTP mode (Slack calls our Request URL). */
    mode: z.enum(["socket", "http"]).default("socket"),
    botToken: z.string().regex(/^xoxb-\S+$/, "SLACK_BOT_TOKEN must be a bot token starting with xoxb-"),
    appToken: z
      .string()
      .regex(/^xapp-\S+$/, "SLACK_APP_TOKEN must be an app-level token starting with xapp-")
      .optional(),
    signingSecret: z.string().min(8, "SLACK_SIGNING_SECRET is too short").optional(),
    /** Web API base URL, ending in /api/ (proxies, tests). */
    apiUrl: z
      .url({ protocol: /^https?$/, error: "SLACK_API_URL must be an http(s) URL" })
      .transform((u) => (u.endsWith("/") ? u : `${u}/`))
      .optional(),
    /** HTTP mode: Bolt's receiver port (also serves /healthz, /readyz, /metrics). Socket Mode: the ops port. */
    port: port.default(3000),
    /** A separate port for the ops endpoints (/healthz, /readyz, /metrics); defaults to `port`. */
    metricsPort: port.optional(),
    /** Path of the slash command, interactivity and events in HTTP mode. */
    eventsPath: z.string().startsWith("/").default("/slack/events"),
    command: z
      .string()
      .regex(/^\/[a-z0-9_-]{1,31}$/, "command must look like /array")
      .default("/array"),
    /** How often user-group membership is refetched even without subteam events. */
    groupRefreshSeconds: z.number().int().min(10).default(300),
    /** How long users.info answers (guest, deactivated) are trusted. */
    userInfoTtlSeconds: z.number().int().min(0).default(300),
    /** Slack allows about one chat.postMessage per second per channel. */
    channelIntervalMs: z.number().int().min(0).default(1000),
    /** Bounded retries of transient Web API failures (5xx, network, 429). */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** Web API request timeout. */
    timeoutMs: z.number().int().min(100).default(15_000),
    /** How often pending approvals are swept for expiry. */
    sweepSeconds: z.number().int().min(1).default(30),
    /** Socket Mode: how long to wait for a pong; also the base of the reconnect backoff. */
    pingTimeoutMs: z.number().int().min(50).default(10_000),
    /** Grace period for in-flight commands on shutdown. */
    drainSeconds: z.number().int().min(0).default(20),
    /**
     * Lists in messages: `data_table` (Slack's sortable, paged table, May 2026) or `table` (the plain table
     * block, for workspaces that do not have data tables yet).
     */
    tables: z.enum(["data_table", "table"]).default("data_table"),
    /** Rows per page of a data table (Slack takes 1 to 100). */
    tablePageSize: z.number().int().min(1).max(100).default(20),
    /**
     * Charts in messages: `native` (Slack's data_visualization block, June 2026: drawn by the client, at most two
     * per message, the rest as PNG) or `png` (the picture uploaded beside the answer, for workspaces without it).
     */
    charts: z.enum(["native", "png"]).default("native"),
  })
  .superRefine((s, ctx) => {
    if (s.mode === "socket" && s.appToken === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["appToken"],
        message: "Socket Mode needs SLACK_APP_TOKEN (an xapp- token with connections:write)",
      });
    }
    if (s.mode === "http" && s.signingSecret === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["signingSecret"],
        message: "HTTP mode needs SLACK_SIGNING_SECRET (Basic Information → Signing Secret)",
      });
    }
  });

export type SlackConfig = z.output<typeof slackSectionSchema>;
export type SlackConfigInput = z.input<typeof slackSectionSchema>;

type Env = Readonly<Record<string, string | undefined>>;

const SECRET_KEYS = ["botToken", "appToken", "signingSecret"] as const;
const ENV_NAME: Record<(typeof SECRET_KEYS)[number], string> = {
  botToken: "SLACK_BOT_TOKEN",
  appToken: "SLACK_APP_TOKEN",
  signingSecret: "SLACK_SIGNING_SECRET",
};

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t === undefined || t === "" ? undefined : t;
}

/**
 * Maps environment variables onto a raw (unvalidated) slack section, merged over the non-secret part of
 * the config file's section. Returns undefined when no Slack variable is set: the bot then runs the console.
 */
export function slackSectionFromEnv(env: Env, fileSection: Record<string, unknown> = {}): unknown {
  const secretsInFile = SECRET_KEYS.filter((k) => k in fileSection);
  if (secretsInFile.length > 0) {
    throw new UserFacingError(
      "CONFIG_SLACK_SECRET_IN_FILE",
      `slack.${secretsInFile.join(", slack.")} must not be in the configuration file: set ${secretsInFile.map((k) => ENV_NAME[k]).join(", ")} in the environment instead.`,
    );
  }
  const botToken = nonEmpty(env["SLACK_BOT_TOKEN"]);
  const appToken = nonEmpty(env["SLACK_APP_TOKEN"]);
  const signingSecret = nonEmpty(env["SLACK_SIGNING_SECRET"]);
  if (botToken === undefined && appToken === undefined && signingSecret === undefined) return undefined;

  const explicitMode = nonEmpty(env["SLACK_MODE"]) ?? fileSection["mode"];
  const mode = explicitMode ?? (appToken === undefined && signingSecret !== undefined ? "http" : "socket");
  const out: Record<string, unknown> = { ...fileSection, mode };
  if (botToken !== undefined) out["botToken"] = botToken;
  if (appToken !== undefined) out["appToken"] = appToken;
  if (signingSecret !== undefined) out["signingSecret"] = signingSecret;
  const apiUrl = nonEmpty(env["SLACK_API_URL"]);
  if (apiUrl !== undefined) out["apiUrl"] = apiUrl;
  const portVar = nonEmpty(env["PORT"]);
  if (portVar !== undefined) out["port"] = portVar;
  const metricsPort = nonEmpty(env["METRICS_PORT"]);
  if (metricsPort !== undefined) out["metricsPort"] = metricsPort;
  // A missing bot token is reported by the schema ("botToken: required") rather than silently ignored.
  return out;
}

/** Validates a raw slack section; every problem is reported at once, secrets are never echoed. */
export function parseSlackSection(raw: unknown): SlackConfig {
  const result = slackSectionSchema.safeParse(raw);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => {
    const where = i.path.length > 0 ? `slack.${i.path.join(".")}` : "slack";
    const message =
      i.code === "invalid_type" && i.path[0] === "botToken"
        ? "SLACK_BOT_TOKEN is required (OAuth & Permissions → Bot User OAuth Token)"
        : i.message;
    return `${where}: ${message}`;
  });
  throw new UserFacingError("CONFIG_SLACK_INVALID", `Slack settings are not valid:\n${lines.join("\n")}`, {
    details: { issues: lines },
  });
}

/** Env (and the file's slack section) → validated config, or undefined when Slack is not configured. */
export function loadSlackConfig(
  env: Env,
  fileSection: Record<string, unknown> = {},
): SlackConfig | undefined {
  const raw = slackSectionFromEnv(env, fileSection);
  return raw === undefined ? undefined : parseSlackSection(raw);
}
