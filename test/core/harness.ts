/**
 * A real pipeline over real simulators (HTTPS on loopback): the registry from commands/index.ts, the array
 * pool, an in-memory pending store, an audit sink that keeps records, a clock the test moves, and an identity
 * port backed by plain maps.
 */
import { RESOURCES } from "../../commands/index.js";
import type { ResolvedArrayConfig } from "../../src/config/arrays.js";
import { type AppConfigInput, configSchema } from "../../src/config/schema.js";
import { ASSISTANT_PREFIX, assistantActor, consoleActor } from "../../src/core/access/actors.js";
import type { PendingStore } from "../../src/core/approvals/pending-store.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { type AuditRecord, memoryAuditSink } from "../../src/core/audit/audit.js";
import type { AuditChain } from "../../src/core/audit/audit-chain.js";
import { createAuditHistory } from "../../src/core/audit/audit-history.js";
import type { ResourceDefinition } from "../../src/core/catalogue/define-command.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import type { ChangeControlRecords } from "../../src/core/change-control/records.js";
import type {
  Actor,
  Effect,
  IdentityPort,
  MessageRef,
  Pipeline,
} from "../../src/core/context/pipeline-types.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import type { Button, Message } from "../../src/core/presentation/message.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { type Logger, silentLogger } from "../../src/logger.js";
import {
  joinThroughKey,
  type Simulator,
  simulatedArrayConfig,
  startSimulator,
} from "../../src/simulator/index.js";
import type { ScenarioName } from "../../src/simulator/state.js";
import { createMemoryStore } from "../../src/store/memory.js";

export const DEMO_ACCESS = {
  default_role: "none" as const,
  admin: { users: ["alice", "dave"], groups: [] },
  operator: { users: ["bob"], groups: ["S-storage"] },
  viewer: { users: ["carol"], groups: [] },
};

/** Small pools and short timeouts: tests fail fast instead of queueing. */
export const TEST_ARRAY_TUNING = {
  connections: 2,
  rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 100 },
  timeouts: { connectMs: 2000, readMs: 10_000 },
  downAfterFailures: 1,
};

export interface HarnessOptions {
  arrays?: {
    name: string;
    tags?: string[];
    versions?: string;
    scenario?: ScenarioName | { scale: { fileSystems: number } };
    /** Served by the simulator of this (earlier) array instead of one of its own: cheap fleets of many names. */
    sharesWith?: string;
  }[];
  /**
   * Arrays started but never configured, each joining the fleet of a configured one with a fleet key as the
   * console demo's fb-edge-01 does (src/local/demo.ts): reached only through their fleet.
   */
  fleetMembers?: readonly { name: string; scenario: ScenarioName; versions: string; joins: string }[];
  config?: Partial<Omit<AppConfigInput, "arrays">>;
  groups?: Record<string, string[]>;
  restricted?: string[];
  /** Wraps the memory pending store (a store that fails a write, for failure tests). */
  pendingStore?: (base: PendingStore) => PendingStore;
  /** Change control's records (break-glass, grants) in a store the test shares between pipelines. */
  changeControl?: ChangeControlRecords;
  /** Replaces the map-backed identity port (a slow lookup, for races). */
  identity?: IdentityPort;
  /** Where the pipeline logs (silent by default). */
  logger?: Logger;
  /** The simulators read the harness clock too (golden files: dates the array reports stay fixed). */
  shareClock?: boolean;
  /** Overrides of TEST_ARRAY_TUNING (time-outs, when an array is marked down). */
  tuning?: Partial<typeof TEST_ARRAY_TUNING>;
  /** A registry of the test's own (a partial one) instead of the real command list. */
  resources?: readonly ResourceDefinition[];
  /** The simulators run on the test's clock too (replication lag, snapshot times), not the wall clock. */
  simulatorClock?: boolean;
  /** Applies the configuration's per-person limits (off by default: most tests send many commands at once). */
  limited?: boolean;
  /** Hears each refusal by a limit, as the metrics do. */
  onLimited?: (reason: "rate" | "concurrency" | "budget") => void;
  /** The fan-out deadline's timer (a real one by default). */
  timer?: (ms: number, ended: AbortSignal) => Promise<void>;
  /** Chains every audit record (src/core/audit/audit-chain.ts); records are unchained without it. */
  auditChain?: AuditChain;
}

export interface Harness {
  sims: Map<string, Simulator>;
  pool: ArrayPool;
  pipeline: Pipeline;
  store: PendingStore;
  audits: AuditRecord[];
  clock: { now: number; advance(ms: number): void };
  /** Runs `/array <text>` as `user` in `channel`. */
  run(user: string, text: string, opts?: { channel?: string; requestId?: string }): Promise<Effect[]>;
  /** Clicks the button labelled `label` in `effects` as `user`. */
  click(user: string, effects: readonly Effect[], label: string, typedText?: string): Promise<Effect[]>;
  close(): Promise<void>;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const specs = opts.arrays ?? [{ name: "lab-1" }];
  const clock = {
    now: Date.UTC(2026, 10, 22, 12, 0, 0),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const sims = new Map<string, Simulator>();
  for (const s of specs) {
    const host = s.sharesWith === undefined ? undefined : sims.get(s.sharesWith);
    if (host) {
      sims.set(s.name, host);
      continue;
    }
    sims.set(
      s.name,
      await startSimulator({
        arrayName: s.name,
        scenario: s.scenario ?? "demo",
        ...(s.versions ? { versions: s.versions } : {}),
        ...(opts.shareClock || opts.simulatorClock ? { clock: () => clock.now } : {}),
      }),
    );
  }
  const members: Simulator[] = [];
  for (const m of opts.fleetMembers ?? []) {
    const sim = await startSimulator({ arrayName: m.name, scenario: m.scenario, versions: m.versions });
    members.push(sim);
    const holder = sims.get(m.joins);
    if (holder) joinThroughKey(sim.state, holder.state);
  }
  const resolved: ResolvedArrayConfig[] = specs.map((s) =>
    simulatedArrayConfig(s.name, sims.get(s.name) as Simulator, {
      ...TEST_ARRAY_TUNING,
      ...opts.tuning,
      tags: s.tags ?? [],
    }),
  );
  const config = configSchema.parse({
    arrays: specs.map((s) => ({
      name: s.name,
      address: sims.get(s.name)?.url,
      api_token_env: "T",
      tags: s.tags ?? [],
    })),
    access: DEMO_ACCESS,
    ...opts.config,
  });
  const pool = createArrayPool(resolved, { logger: silentLogger(), sleep: async () => {} });
  const store = opts.pendingStore
    ? opts.pendingStore(createMemoryPendingStore())
    : createMemoryPendingStore();
  const sink = memoryAuditSink();
  let seq = 0;
  const pipeline = createPipeline({
    registry: opts.resources ? createRegistry(opts.resources, { partial: true }) : createRegistry(RESOURCES),
    pool,
    config,
    identity: opts.identity ?? {
      groupsOf: async (u) => opts.groups?.[u] ?? [],
      isRestricted: async (u) => opts.restricted?.includes(u) ?? false,
    },
    store,
    audit: sink,
    history: createAuditHistory(createMemoryStore({ now: () => clock.now }), { keep: 50, days: 90 }),
    logger: opts.logger ?? silentLogger(),
    now: () => clock.now,
    newId: () => `id-${++seq}`,
    ...(opts.limited ? { limits: config.limits } : {}),
    ...(opts.onLimited ? { onLimited: opts.onLimited } : {}),
    ...(opts.timer ? { timer: opts.timer } : {}),
    ...(opts.changeControl ? { changeControl: opts.changeControl } : {}),
    ...(opts.auditChain ? { auditChain: opts.auditChain } : {}),
  });
  let ts = 0;
  const attach = async (effects: Effect[]) => {
    for (const e of effects) {
      if (e.kind === "post" && e.trackPending) {
        const ref: MessageRef = { channelId: e.channelId, ts: `ts-${++ts}` };
        await pipeline.attachMessage(e.trackPending, ref);
      }
    }
    return effects;
  };
  return {
    sims,
    pool,
    pipeline,
    store,
    audits: sink.records,
    clock,
    run: async (user, text, o = {}) =>
      attach(
        await pipeline.handleCommand({
          text,
          actor: actorFor(user, o.channel ?? "C1"),
          ...(o.requestId ? { requestId: o.requestId } : {}),
        }),
      ),
    click: async (user, effects, label, typedText) => {
      const button = findButton(effects, label);
      return attach(
        await pipeline.handleClick({
          actionId: button.actionId,
          value: button.value,
          actor: actorFor(user, "C1"),
          ...(typedText === undefined ? {} : { typedText }),
        }),
      );
    },
    async close() {
      await pool.close();
      for (const s of [...new Set(sims.values()), ...members]) await s.close();
    },
  };
}

export function messagesOf(effects: readonly Effect[]): Message[] {
  return effects.flatMap((e) =>
    e.kind === "reply" || e.kind === "post" || e.kind === "update" ? [e.message] : [],
  );
}

/** Every bit of text in the effects (markup and plain), for assertions. */
export function textOf(effects: readonly Effect[]): string {
  return messagesOf(effects)
    .flatMap((m) => [
      m.text,
      ...m.blocks.map((b) => {
        switch (b.type) {
          case "section":
          case "context":
            return b.text.markup;
          case "header":
          case "code":
            return b.text;
          case "fields":
            return b.fields.map((f) => `${f.label}: ${f.value.markup}`).join("\n");
          case "table":
            return b.rows.map((r) => Object.values(r).join(" | ")).join("\n");
          default:
            return "";
        }
      }),
    ])
    .join("\n");
}

export function findButton(effects: readonly Effect[], label: string): Button {
  for (const m of messagesOf(effects)) {
    for (const b of m.blocks) {
      if (b.type !== "actions") continue;
      const hit = b.buttons.find((x) => x.label === label || x.label.startsWith(label));
      if (hit) return hit;
    }
  }
  throw new Error(`no button "${label}" in ${JSON.stringify(effects.map((e) => e.kind))}`);
}

/** The harness's users are console users (`alice`), or an MCP client's principal when named `mcp:<client>`. */
export function actorFor(user: string, channelId: string): Actor {
  return user.startsWith(ASSISTANT_PREFIX)
    ? assistantActor(user.slice(ASSISTANT_PREFIX.length), channelId)
    : consoleActor(user, channelId);
}
