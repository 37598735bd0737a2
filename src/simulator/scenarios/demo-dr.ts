/**
 * "fb-dr-01"-style demo array: the replication target of the "demo" array. It holds demoted copies of the
 * source's replicated file systems and buckets (inbound links from fb-lab-01), a little local work of its own
 * (one file system nothing protects), and no logs-archive bucket — the source's broken bucket link says so.
 */
import { type ArrayConnectionRec, freshLinkHealth } from "../models/replication.js";
import { caGroupFor } from "../models/replication-rules.js";
import type { SimState } from "../state.js";
import { addFileSystem, addPolicy, DAILY, type FsSpec } from "./demo.js";
import { seedInfrastructure } from "./infrastructure.js";
import { DAY, TIB } from "./units.js";

/** The source array this one is the target of. */
export const DR_SOURCE = "fb-lab-01";

const FILE_SYSTEMS: FsSpec[] = [
  { name: "home", size: 20, used: 12.3, protocols: ["nfs3", "nfs4", "smb"], ageDays: 600 },
  { name: "projects", size: 50, used: 46.1, protocols: ["nfs3", "nfs4"], ageDays: 600 },
  { name: "builds", size: 10, used: 9.2, protocols: ["nfs3"], ageDays: 300 },
  { name: "dr-drills", size: 4, used: 1.2, protocols: ["nfs3"], ageDays: 90 },
  { name: "restore-staging", size: 10, used: 3.4, protocols: ["nfs4"], ageDays: 120 },
];
const REPLICA_FILE_SYSTEMS = ["home", "projects", "builds"];
const BUCKETS = [
  { name: "analytics-curated", account: "analytics", usedTiB: 11.9, objects: 2_050_000 },
  { name: "veeam-repo", account: "backup", usedTiB: 58.2, objects: 905_000 },
];
/** Made ready (empty, versioned) for fb-lab-01's analytics-raw to replicate into: nothing links to it yet. */
const READY_BUCKETS = [{ name: "analytics-raw-dr", account: "analytics", usedTiB: 0, objects: 0 }];

function source(state: SimState): ArrayConnectionRec {
  const c: ArrayConnectionRec = {
    id: state.newId(),
    remote: { id: state.newId(), name: DR_SOURCE },
    management_address: "10.21.0.20",
    replication_addresses: ["10.21.200.10"],
    status: "connected",
    encrypted: true,
    version: "3.2.4",
    ca_certificate_group: caGroupFor(state, true, undefined),
  };
  state.arrayConnections.set(c.id, c);
  return c;
}

export function seedDemoDr(state: SimState): void {
  seedInfrastructure(state, { blades: 7, unhealthy: [] });
  const now = state.clock();
  for (const spec of FILE_SYSTEMS) {
    const fs = addFileSystem(state, spec, now);
    // Replica targets stay demoted (read-only) until a failover promotes them.
    if (REPLICA_FILE_SYSTEMS.includes(fs.name)) {
      fs.requested_promotion_state = "demoted";
      fs.writable = false;
    }
  }
  addPolicy(state, "daily", true, [DAILY], ["restore-staging"]);
  for (const name of ["analytics", "backup"]) {
    state.accounts.set(name, { id: state.newId(), name, created: now - 400 * DAY });
  }
  // The users fb-lab-01's replication credentials are keys of (`remote-credentials create/rotate --user`).
  for (const name of ["backup/replication", "backup/veeam"]) {
    state.objectUsers.set(name, {
      id: state.newId(),
      name,
      account: "backup",
      created: now - 300 * DAY,
      full_access: false,
    });
  }
  for (const b of [...BUCKETS, ...READY_BUCKETS]) {
    const virtual = Math.round(b.usedTiB * TIB);
    state.buckets.set(b.name, {
      id: state.newId(),
      name: b.name,
      account: b.account,
      created: now - 300 * DAY,
      destroyed: false,
      destroyedAt: null,
      versioning: "enabled",
      object_count: b.objects,
      space: { virtual, unique: Math.round(virtual / 1.3), snapshots: 0, data_reduction: 1.3 },
    });
  }
  const conn = source(state);
  for (const fs of REPLICA_FILE_SYSTEMS) {
    const id = state.newId();
    state.fileSystemReplicaLinks.set(id, {
      id,
      localFileSystem: fs,
      remoteId: conn.id,
      remoteFileSystem: fs,
      policies: [],
      ...freshLinkHealth({ direction: "inbound" }),
    });
  }
  for (const b of BUCKETS) {
    const id = state.newId();
    state.bucketReplicaLinks.set(id, {
      id,
      localBucket: b.name,
      remoteId: conn.id,
      remoteBucket: b.name,
      remoteCredentials: "",
      ...freshLinkHealth({ direction: "inbound" }),
    });
  }
  state.snapshotSeq = 100;
}
