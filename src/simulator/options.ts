import type { Logger } from "pino";
import { z } from "zod";
import { UserFacingError } from "../errors.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { parseVersionRange } from "../rest-spec/versions.js";
import type { ScenarioName, SimState } from "./state.js";
import type { TlsMaterial } from "./tls.js";
import type { SimHandler } from "./types.js";

/** The token a simulator accepts when started without `apiTokens`; the CLI prints it. */
export const DEFAULT_API_TOKEN = "T-demo";
export const DEFAULT_USERNAME = "pureuser";
export const DEFAULT_IDLE_MS = 30 * 60_000;
/** What a current array serves: every 1.x version, then 2.0–2.28. */
export const CURRENT_ARRAY_VERSIONS = "1.0-1.12,2.0-2.28";

/**
 * The versions a simulator serves when not told: ARRAY_SIM_VERSIONS when set (a test project flips every
 * simulated array of the suite to one generation with it, child processes included), else a current array's.
 */
export function defaultVersions(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return versionsOverride(env) ?? CURRENT_ARRAY_VERSIONS;
}

/** ARRAY_SIM_VERSIONS when set: it also overrides what the demo pins (src/local/demo.ts). */
export function versionsOverride(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const v = env["ARRAY_SIM_VERSIONS"]?.trim();
  return v ? v : undefined;
}

export interface SimulatorOptions {
  /** 0 (default) picks any free port. */
  port?: number;
  host?: string;
  /**
   * Range or list of REST versions served, of both generations: "1.0-1.12", "1.4,1.8", "2.0-2.24" (a 2.x-only
   * array), "1.0-1.12,2.0-2.24"; by default defaultVersions().
   */
  versions?: string;
  apiTokens?: readonly { token: string; username: string }[];
  scenario?: ScenarioName | { scale: { fileSystems: number } };
  arrayName?: string;
  sessionIdleMs?: number;
  /** Milliseconds since the epoch; drives session expiry and the state's timestamps. */
  clock?: () => number;
  /** Injected wait used for latency faults and timed outages, so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  tls?: TlsMaterial;
  /**
   * The key-exchange groups the array's TLS accepts, as an OpenSSL list (Node's `ecdhCurve`): "X25519:P-256"
   * plays an array whose OpenSSL predates ML-KEM. By default Node's own, which prefers X25519MLKEM768.
   */
  tlsGroups?: string;
  /** Serve the HTTP control interface under /_control (off by default). */
  controlPath?: boolean;
  /** Seed for deterministic faults and state. */
  seed?: number;
  loginBanner?: string;
  logger?: Logger;
  /** Handler lookup; defaults to the simulator's resources. Tests of the front end inject their own. */
  handlers?: (method: HttpMethod, path: string) => SimHandler<SimState> | undefined;
}

const optionsSchema = z.object({
  port: z.number().int().min(0).max(65535).default(0),
  host: z.string().min(1).default("127.0.0.1"),
  versions: z.string().min(1).optional(),
  apiTokens: z
    .array(z.object({ token: z.string().min(1), username: z.string().min(1) }))
    .min(1, "give at least one API token")
    .default([{ token: DEFAULT_API_TOKEN, username: DEFAULT_USERNAME }]),
  arrayName: z.string().min(1).max(63).default("sim-1"),
  sessionIdleMs: z.number().int().positive().default(DEFAULT_IDLE_MS),
  controlPath: z.boolean().default(false),
  seed: z.number().int().default(1),
});

export type ResolvedOptions = z.output<typeof optionsSchema> & { versions: string; versionList: string[] };

/** Validates the plain-data options; a bad value is a clear, coded error rather than a half-started server. */
export function resolveOptions(opts: SimulatorOptions): ResolvedOptions {
  const {
    clock: _c,
    sleep: _s,
    tls: _t,
    logger: _l,
    scenario: _sc,
    loginBanner: _b,
    handlers: _h,
    ...plain
  } = opts;
  const parsed = optionsSchema.safeParse(plain);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ");
    throw new UserFacingError("SIM_BAD_OPTIONS", `Invalid simulator options: ${why}`);
  }
  const versions = parsed.data.versions ?? defaultVersions();
  const versionList = parseVersionRange(versions);
  if (versionList.length === 0) {
    throw new UserFacingError(
      "SIM_BAD_OPTIONS",
      `Invalid simulator options: versions "${versions}" names no known REST version (try "1.0-1.12" or "2.0-2.28").`,
    );
  }
  return { ...parsed.data, versions, versionList };
}
