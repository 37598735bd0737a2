#!/usr/bin/env node
/**
 * `npm run simulator`: one or more simulated arrays on consecutive ports until SIGINT/SIGTERM.
 * Output for people goes to stdout; the simulators' own logs go to stderr through pino.
 */
import { readFile, writeFile } from "node:fs/promises";
import { pino } from "pino";
import { createLogger } from "../logger.js";
import { type CliArgs, parseCliArgs, USAGE } from "./cli-args.js";
import { CONTROL_PREFIX } from "./control-http.js";
import { type Simulator, startSimulator } from "./server.js";
import { selfSignedCertificate, type TlsMaterial } from "./tls.js";

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function loadTls(args: CliArgs): Promise<TlsMaterial> {
  if (args.cert === undefined || args.key === undefined) return selfSignedCertificate();
  try {
    return { cert: await readFile(args.cert, "utf8"), key: await readFile(args.key, "utf8") };
  } catch (e) {
    throw new Error(`Cannot read the certificate or key: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function describeScenario(args: CliArgs): string {
  return typeof args.scenario === "string" ? args.scenario : `scale:${args.scenario.scale.fileSystems}`;
}

async function start(args: CliArgs): Promise<Simulator[]> {
  const logger = createLogger({
    level: args["log-level"],
    name: "simulator",
    destination: pino.destination(2),
  });
  const tls = await loadTls(args);
  const sims: Simulator[] = [];
  try {
    for (let i = 0; i < args.arrays; i++) {
      sims.push(
        await startSimulator({
          port: args.port === 0 ? 0 : args.port + i,
          host: args.host,
          versions: args.versions,
          apiTokens: [{ token: args["api-token"], username: args.username }],
          scenario: args.scenario,
          arrayName: `${args["name-prefix"]}-${i + 1}`,
          sessionIdleMs: args["idle-timeout"],
          tls,
          controlPath: args.control,
          seed: args.seed + i,
          logger: logger.child({ array: `${args["name-prefix"]}-${i + 1}` }),
        }),
      );
    }
  } catch (e) {
    await Promise.all(sims.map((s) => s.close()));
    const code = (e as { code?: string }).code;
    if (code === "EADDRINUSE")
      throw new Error(`A port is already in use (${(e as Error).message}). Try another --port.`);
    throw e;
  }
  if (args["ca-out"] !== undefined) await writeFile(args["ca-out"], tls.cert, { mode: 0o644 });
  return sims;
}

function announce(args: CliArgs, sims: readonly Simulator[]): void {
  for (const sim of sims) {
    out(`${sim.arrayName}  ${sim.apiUrl}  (REST ${args.versions}, scenario ${describeScenario(args)})`);
    if (args.control) out(`  control: ${sim.url}${CONTROL_PREFIX}/<op>`);
  }
  out(`API token: ${args["api-token"]} (logs in as ${args.username})`);
  if (args["ca-out"] !== undefined) out(`Certificate to trust: ${args["ca-out"]}`);
  else if (args.cert === undefined)
    out("Certificate: self-signed; pass --ca-out FILE to save it for clients.");
  out("Press Ctrl+C to stop.");
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    err(`Error: ${parsed.error}\n`);
    err(USAGE);
    return 2;
  }
  if (parsed.args.help) {
    out(USAGE);
    return 0;
  }
  let sims: Simulator[];
  try {
    sims = await start(parsed.args);
  } catch (e) {
    err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  announce(parsed.args, sims);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  // A second signal while closing means "now".
  const force = () => process.exit(1);
  process.once("SIGINT", force);
  process.once("SIGTERM", force);
  await Promise.all(sims.map((s) => s.close()));
  out("Simulator stopped.");
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
