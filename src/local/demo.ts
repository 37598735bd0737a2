/**
 * The built-in demo for the console: two simulated arrays on loopback and a configuration that maps a few
 * demo users to roles, so every flow (including a two-person approval) can be tried without Slack.
 */
import type { ResolvedArrayConfig } from "../config/arrays.js";
import type { LoadedConfig } from "../config/load.js";
import { configSchema } from "../config/schema.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { joinThroughKey, type Simulator, simulatedArrayConfig, startSimulator } from "../simulator/index.js";
import { versionsOverride } from "../simulator/options.js";

/** Demo users and what they may do; `/as <name>` switches between them. */
export const DEMO_USERS: Readonly<Record<string, string>> = {
  alice: "admin",
  bob: "operator",
  carol: "viewer",
  dave: "admin",
};

/**
 * fb-dr-01 is the replication target of fb-lab-01: their replica links, connection and contents match. A mixed
 * fleet, as most are: fb-lab-01 serves both generations like a current array (the bot speaks 2.28 to it),
 * fb-dr-01 is an older array on REST 1.x only. ARRAY_SIM_VERSIONS overrides both, so each run of the test suite
 * stays on one generation (goldens and examples are written per generation).
 */
export const DEMO_ARRAYS = [
  { name: "fb-lab-01", tags: ["lab"], scenario: "demo", versions: "1.0-1.12,2.0-2.28" },
  { name: "fb-dr-01", tags: ["dr"], scenario: "demo-dr", versions: "1.0-1.12" },
] as const;

/**
 * Arrays of the demo the bot is not configured for: fb-edge-01 joins fb-lab-01's fleet (fleet-prod) at start,
 * with a fleet key, so `--array fb-edge-01` reaches it through fb-lab-01 (REST 2.17+ `context_names`). The tests'
 * demo starts it only for the examples that name it (`fleet member remove fb-edge-01`): elsewhere fleet-prod has
 * one member, so `fleet delete fleet-prod` runs (test/commands/demo-examples.ts).
 */
export const DEMO_FLEET_MEMBERS = [
  { name: "fb-edge-01", scenario: "empty", versions: "2.0-2.28", joins: "fb-lab-01" },
] as const;

/** What `npm start -- --demo <incident>` may put on fb-lab-01: the demo itself, or the demo with an incident. */
export const DEMO_INCIDENTS = ["slow-nfs", "growth", "freeze"] as const;
export type DemoIncident = (typeof DEMO_INCIDENTS)[number];

/**
 * `--demo slow-nfs` (the README's diagnose excerpt) or `--demo growth` (its forecast): fb-lab-01 starts with that
 * incident seeded on the demo. Undefined without the option; a clear refusal for an unknown incident.
 */
export function demoIncidentFrom(argv: readonly string[]): DemoIncident | undefined {
  const i = argv.indexOf("--demo");
  if (i < 0) return undefined;
  const name = argv[i + 1];
  const known = DEMO_INCIDENTS.find((d) => d === name);
  if (known === undefined) {
    throw new UserFacingError(
      "INVALID_ARGUMENTS",
      `--demo takes one of ${DEMO_INCIDENTS.join(", ")} (an incident on fb-lab-01), e.g. \`npm start -- --demo slow-nfs\`.`,
    );
  }
  return known;
}

export interface Demo {
  loaded: LoadedConfig;
  close(): Promise<void>;
}

/**
 * Starts the simulators and returns a configuration pointing at them. `override` replaces every array's versions
 * (by default ARRAY_SIM_VERSIONS; null keeps the demo's own, as `npm start` runs it).
 */
export async function startDemo(
  logger: Logger,
  incident?: DemoIncident,
  override: string | null = versionsOverride() ?? null,
): Promise<Demo> {
  const sims: Simulator[] = [];
  // Fleet members the bot reaches only through their fleet: started, never configured.
  const extra: Simulator[] = [];
  try {
    for (const a of DEMO_ARRAYS) {
      sims.push(
        await startSimulator({
          arrayName: a.name,
          // `freeze` is a change-control drill, not an array incident: the arrays stay the demo's.
          scenario:
            a.scenario === "demo" && incident !== undefined && incident !== "freeze" ? incident : a.scenario,
          versions: override ?? a.versions,
          logger: logger.child({ sim: a.name }),
        }),
      );
    }
    for (const m of DEMO_FLEET_MEMBERS) {
      const sim = await startSimulator({
        arrayName: m.name,
        scenario: m.scenario,
        versions: m.versions,
        logger: logger.child({ sim: m.name }),
      });
      extra.push(sim);
      const holder = sims[DEMO_ARRAYS.findIndex((a) => a.name === m.joins)];
      if (holder) joinThroughKey(sim.state, holder.state);
    }
  } catch (err) {
    await Promise.all([...sims, ...extra].map((s) => s.close()));
    throw err;
  }
  const arrays: ResolvedArrayConfig[] = DEMO_ARRAYS.map((a, i) =>
    simulatedArrayConfig(a.name, sims[i] as Simulator, { tags: [...a.tags] }),
  );
  const byRole = (role: string) => ({
    users: Object.entries(DEMO_USERS)
      .filter(([, r]) => r === role)
      .map(([u]) => u),
  });
  const config = configSchema.parse({
    arrays: DEMO_ARRAYS.map((a, i) => ({
      name: a.name,
      address: sims[i]?.url,
      api_token_env: "DEMO_TOKEN",
      tags: [...a.tags],
    })),
    access: {
      default_role: "none",
      admin: byRole("admin"),
      operator: byRole("operator"),
      viewer: byRole("viewer"),
    },
    channels: { default_array: "fb-lab-01" },
    // Change control to try (docs/change-control.md): operators of the lab may be granted by an admin for a while,
    // and dave is the on-call lead who may break glass through a freeze.
    access_requests: {
      rules: [{ roles: ["operator"], arrays: "tag:lab", max: "4h", approvers: byRole("admin") }],
    },
    break_glass: { users: ["dave"] },
    // `--demo freeze`: the lab is in its year-end freeze, from an hour ago for two weeks (docs/change-control.md).
    ...(incident === "freeze"
      ? {
          freeze: [
            {
              name: "year-end",
              from: new Date(Date.now() - 3_600_000).toISOString(),
              to: new Date(Date.now() + 14 * 86_400_000).toISOString(),
              arrays: "tag:lab",
            },
          ],
        }
      : {}),
  });
  return {
    loaded: { config, arrays, source: "demo" },
    async close() {
      await Promise.all([...sims, ...extra].map((s) => s.close()));
    },
  };
}
