/**
 * The simulated array's state: every stateful resource in plain maps, the injected clock, and a seeded id
 * source so runs are reproducible. Handlers in resources/ read and change it; scenarios/ fill it.
 */
import type { AlertRec, AlertWatcherRec } from "./models/alert.js";
import type { ArrayRec, AuditRec, ClientRec } from "./models/array.js";
import type { FileSystemRec } from "./models/file-system.js";
import { emptyNetwork, type NetworkState } from "./models/network.js";
import type {
  AccessKeyRec,
  AccessPolicyRec,
  AccountRec,
  BucketRec,
  LifecycleRuleRec,
  ObjectUserRec,
} from "./models/object-store.js";
import type { PolicyRec } from "./models/policy.js";
import type { QuotaTables } from "./models/quota.js";
import { createIdSource, createRng } from "./models/random.js";
import type {
  ArrayConnectionRec,
  BucketReplicaLinkRec,
  FileSystemReplicaLinkRec,
} from "./models/replication.js";
import type { SnapshotRec } from "./models/snapshot.js";
import { seedNetworkAccess } from "./resources/export-policies.js";
import { seedAccessPolicies } from "./resources/object-store-access-policies.js";
import { seedDemo } from "./scenarios/demo.js";
import { seedDemoDr } from "./scenarios/demo-dr.js";
import type { ScenarioEffects } from "./scenarios/effects.js";
import { seedEmpty } from "./scenarios/empty.js";
import { seedGrowth } from "./scenarios/growth.js";
import { seedScale } from "./scenarios/scale.js";
import { seedSlowNfs } from "./scenarios/slow-nfs.js";
import { refusedObjects } from "./state-rules.js";

/** Named scenarios: the demo array, an empty one, and incidents on the demo array (slow-nfs, growth). */
export const SCENARIOS = {
  demo: seedDemo,
  "demo-dr": seedDemoDr,
  empty: seedEmpty,
  "slow-nfs": seedSlowNfs,
  growth: seedGrowth,
} as const;
export type ScenarioName = keyof typeof SCENARIOS;

export interface StateOptions {
  scenario: ScenarioName | { scale: { fileSystems: number } };
  /** Milliseconds since the epoch; injected so tests control time. */
  clock: () => number;
  arrayName: string;
  /** Seed for deterministic ids and synthetic series. */
  seed?: number;
}

/** A collection served by the generic handler: any JSON items keyed by name. */
export interface GenericCollection {
  /** Singletons (dns, smtp, …) always hold one item and only accept PATCH. */
  readonly singleton: boolean;
  readonly items: Map<string, Record<string, unknown>>;
}

export interface SimState {
  readonly clock: () => number;
  readonly seed: number;
  /** Seeded randomness for generated values (suffixes, keys, secrets). */
  readonly rng: () => number;
  readonly newId: () => string;
  array: ArrayRec;
  fileSystems: Map<string, FileSystemRec>;
  snapshots: Map<string, SnapshotRec>;
  /** Last array-chosen snapshot suffix number. */
  snapshotSeq: number;
  policies: Map<string, PolicyRec>;
  users: QuotaTables;
  groups: QuotaTables;
  accounts: Map<string, AccountRec>;
  objectUsers: Map<string, ObjectUserRec>;
  accessKeys: Map<string, AccessKeyRec>;
  buckets: Map<string, BucketRec>;
  /** Object store access policies (1.12), keyed by name. */
  accessPolicies: Map<string, AccessPolicyRec>;
  /** Keyed by `bucket/rule_id`. */
  lifecycleRules: Map<string, LifecycleRuleRec>;
  /** Keyed by id. */
  arrayConnections: Map<string, ArrayConnectionRec>;
  bucketReplicaLinks: Map<string, BucketReplicaLinkRec>;
  fileSystemReplicaLinks: Map<string, FileSystemReplicaLinkRec>;
  /** Keyed by index. */
  alerts: Map<number, AlertRec>;
  alertSeq: number;
  alertWatchers: Map<string, AlertWatcherRec>;
  clients: ClientRec[];
  audits: AuditRec[];
  /** Subnets, network interfaces and link aggregation groups. */
  network: NetworkState;
  /** Keyed by endpoint path, e.g. "/hardware". */
  generic: Map<string, GenericCollection>;
  /** How an incident scenario bends the synthetic history (none for a steady array). */
  effects?: ScenarioEffects;
}

const TIB = 1024 ** 4;

export function createState(opts: StateOptions): SimState {
  const seed = opts.seed ?? 1;
  const rng = createRng(seed);
  const newId = createIdSource(rng);
  const state: SimState = {
    clock: opts.clock,
    seed,
    rng,
    newId,
    array: {
      id: newId(),
      name: opts.arrayName,
      ntp_servers: ["time.example.com"],
      os: "Purity//FB",
      version: "3.2.4",
      revision: "2021.11.05_2b9e1a6c",
      time_zone: "UTC",
      banner: "",
      idle_timeout: 1_800_000,
      capacity: 500 * TIB,
      parity: 0.84,
    },
    fileSystems: new Map(),
    snapshots: new Map(),
    snapshotSeq: 0,
    policies: new Map(),
    users: { directory: [], quotas: new Map(), usage: new Map() },
    groups: { directory: [], quotas: new Map(), usage: new Map() },
    accounts: new Map(),
    objectUsers: new Map(),
    accessKeys: new Map(),
    buckets: new Map(),
    accessPolicies: new Map(),
    lifecycleRules: new Map(),
    arrayConnections: new Map(),
    bucketReplicaLinks: new Map(),
    fileSystemReplicaLinks: new Map(),
    alerts: new Map(),
    alertSeq: 0,
    alertWatchers: new Map(),
    clients: [],
    audits: [],
    network: emptyNetwork(),
    generic: new Map(),
  };
  // Every array ships its built-in access policies, whatever else it holds.
  seedAccessPolicies(state);
  seedNetworkAccess(state);
  const scenario = opts.scenario;
  if (typeof scenario === "string") SCENARIOS[scenario](state);
  else seedScale(state, scenario.scale.fileSystems);
  // A scenario holds only states an array could be in: its objects pass the rules requests meet.
  const refused = refusedObjects(state);
  if (refused.length > 0) {
    const name = typeof scenario === "string" ? scenario : "scale";
    throw new Error(`Scenario '${name}' seeds objects the array's rules refuse:\n${refused.join("\n")}`);
  }
  return state;
}
