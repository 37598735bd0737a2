import { parseArgs } from "node:util";
import { z } from "zod";
import { parseVersionRange } from "../rest-spec/versions.js";
import { CURRENT_ARRAY_VERSIONS, DEFAULT_API_TOKEN, DEFAULT_USERNAME, defaultVersions } from "./options.js";
import { SCENARIOS, type ScenarioName } from "./state.js";

export const USAGE = `Usage: npm run simulator -- [options]

Starts simulated FlashBlade arrays (REST 1.x and 2.x over HTTPS) until Ctrl+C.

  --port N            first port (default 8443; 0 = any free port); --arrays N uses N consecutive ports
  --host ADDR         address to listen on (default 127.0.0.1)
  --arrays N          number of arrays, named sim-1 ... sim-N (default 1, at most 32)
  --name-prefix P     name them P-1 ... P-N instead (simulators in separate processes connect by name)
  --api-token T       API token accepted for login (default ${DEFAULT_API_TOKEN})
  --username U        user the token logs in as (default ${DEFAULT_USERNAME})
  --versions R        REST versions served, ranges and lists of both generations: ${CURRENT_ARRAY_VERSIONS}
                      (default, as a current array), 1.0-1.12 (1.x only), 2.0-2.24 (2.x only), 1.4,1.8
  --scenario S        demo (default), empty, slow-nfs, growth, or scale:N (N file systems)
  --idle-timeout D    session idle timeout, e.g. 30m (default), 90s, 1h
  --control           serve the HTTP control interface under /_control
  --cert FILE --key FILE   serve this certificate instead of a generated self-signed one
  --ca-out FILE       write the certificate clients should trust to FILE
  --seed N            seed for generated data and injected faults (default 1)
  --log-level L       fatal, error, warn, info (default), debug, trace or silent
  --help              show this text`;

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

const scenarioSchema = z.string().transform((s, ctx): ScenarioName | { scale: { fileSystems: number } } => {
  if (Object.hasOwn(SCENARIOS, s)) return s as ScenarioName;
  const m = /^scale:(\d+)$/.exec(s);
  const n = m ? Number(m[1]) : Number.NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 1_000_000) return { scale: { fileSystems: n } };
  ctx.addIssue({
    code: "custom",
    message: `unknown scenario "${s}"; use ${Object.keys(SCENARIOS).join(", ")} or scale:N (1 to 1000000)`,
  });
  return z.NEVER;
});

const intString = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const argsSchema = z
  .object({
    port: intString("--port", 0, 65535).default(8443),
    host: z.string().min(1).default("127.0.0.1"),
    arrays: intString("--arrays", 1, 32).default(1),
    "name-prefix": z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]{0,50}$/, "--name-prefix takes letters, digits and dashes (e.g. fb-dr)")
      .default("sim"),
    "api-token": z.string().min(1, "--api-token must not be empty").default(DEFAULT_API_TOKEN),
    username: z.string().min(1).default(DEFAULT_USERNAME),
    versions: z
      .string()
      .refine(
        (v) => parseVersionRange(v).length > 0,
        "--versions names no known REST version (try 1.0-1.12, 2.0-2.28 or 1.0-1.12,2.0-2.28)",
      )
      .default(() => defaultVersions()),
    scenario: scenarioSchema.default("demo"),
    "idle-timeout": z
      .string()
      .regex(DURATION, "--idle-timeout needs a number and a unit: ms, s, m or h (e.g. 30m)")
      .transform((d) => {
        const m = DURATION.exec(d) as RegExpExecArray;
        return Number(m[1]) * (UNIT_MS[m[2] as string] as number);
      })
      .pipe(z.number().positive("--idle-timeout must be more than 0"))
      .default(30 * 60_000),
    control: z.boolean().default(false),
    cert: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    "ca-out": z.string().min(1).optional(),
    seed: intString("--seed", 0, 2 ** 31 - 1).default(1),
    "log-level": z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    help: z.boolean().default(false),
  })
  .refine((a) => (a.cert === undefined) === (a.key === undefined), "--cert and --key go together")
  .refine((a) => a.port === 0 || a.port + a.arrays - 1 <= 65535, "--port plus --arrays runs past port 65535");

export type CliArgs = z.output<typeof argsSchema>;

export type ParsedCli = { ok: true; args: CliArgs } | { ok: false; error: string };

export function parseCliArgs(argv: readonly string[]): ParsedCli {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        arrays: { type: "string" },
        "name-prefix": { type: "string" },
        "api-token": { type: "string" },
        username: { type: "string" },
        versions: { type: "string" },
        scenario: { type: "string" },
        "idle-timeout": { type: "string" },
        control: { type: "boolean" },
        cert: { type: "string" },
        key: { type: "string" },
        "ca-out": { type: "string" },
        seed: { type: "string" },
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  const parsed = argsSchema.safeParse(values);
  if (parsed.success) return { ok: true, args: parsed.data };
  return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") };
}
