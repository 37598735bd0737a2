/** Demo object store (accounts, users, keys, buckets, lifecycle rules) and replication. */
import type { BucketRec, Versioning } from "../models/object-store.js";
import { randomLetters, randomSecret } from "../models/random.js";
import { type ArrayConnectionRec, freshLinkHealth, type LinkHealth } from "../models/replication.js";
import { caGroupFor } from "../models/replication-rules.js";
import type { SimState } from "../state.js";
import { put } from "./put.js";
import { DAY, HOUR, TIB } from "./units.js";

interface BucketSpec {
  name: string;
  account: string;
  usedTiB: number;
  objects: number;
  versioning: Versioning;
  destroyedHoursAgo?: number;
}

const BUCKETS: BucketSpec[] = [
  { name: "analytics-raw", account: "analytics", usedTiB: 42.5, objects: 18_400_000, versioning: "enabled" },
  {
    name: "analytics-curated",
    account: "analytics",
    usedTiB: 12.1,
    objects: 2_100_000,
    versioning: "enabled",
  },
  { name: "veeam-repo", account: "backup", usedTiB: 61.0, objects: 930_000, versioning: "none" },
  { name: "logs-archive", account: "backup", usedTiB: 8.4, objects: 44_000_000, versioning: "suspended" },
  {
    name: "tmp-export",
    account: "analytics",
    usedTiB: 1.3,
    objects: 12_000,
    versioning: "none",
    destroyedHoursAgo: 10,
  },
];

function objectStore(state: SimState, now: number): void {
  for (const name of ["analytics", "backup"]) {
    state.accounts.set(name, { id: state.newId(), name, created: now - 500 * DAY });
  }
  for (const name of ["analytics/etl", "analytics/reader", "backup/veeam"]) {
    const [account = ""] = name.split("/");
    state.objectUsers.set(name, {
      id: state.newId(),
      name,
      account,
      created: now - 400 * DAY,
      full_access: false,
    });
    const key = `PSFB${randomLetters(state.rng, 40)}`;
    state.accessKeys.set(key, {
      id: state.newId(),
      name: key,
      user: name,
      created: now - 300 * DAY,
      enabled: name !== "analytics/reader",
      secret: randomSecret(state.rng, 40),
    });
  }
  for (const b of BUCKETS) {
    const rec: BucketRec = {
      id: state.newId(),
      name: b.name,
      account: b.account,
      created: now - 350 * DAY,
      destroyed: b.destroyedHoursAgo !== undefined,
      destroyedAt: b.destroyedHoursAgo === undefined ? null : now - b.destroyedHoursAgo * HOUR,
      versioning: b.versioning,
      object_count: b.objects,
      space: {
        virtual: Math.round(b.usedTiB * TIB),
        unique: Math.round((b.usedTiB * TIB) / 1.3),
        snapshots: 0,
        data_reduction: 1.3,
      },
    };
    state.buckets.set(rec.name, rec);
  }
  const rule = (bucket: string, ruleId: string, days: number, prefix: string, enabled = true) =>
    state.lifecycleRules.set(`${bucket}/${ruleId}`, {
      id: state.newId(),
      bucket,
      rule_id: ruleId,
      enabled,
      keep_previous_version_for: days * DAY,
      prefix,
    });
  rule("analytics-raw", "expire-old-versions", 30, "");
  rule("analytics-raw", "tmp-cleanup", 2, "tmp/");
  rule("logs-archive", "fbRule1", 90, "", false);
}

function connection(
  state: SimState,
  name: string,
  address: string,
  status: ArrayConnectionRec["status"],
  encrypted = true,
): ArrayConnectionRec {
  const c: ArrayConnectionRec = {
    id: state.newId(),
    remote: { id: state.newId(), name },
    management_address: address,
    replication_addresses: [address.replace(/\.\d+$/, ".50"), address.replace(/\.\d+$/, ".51")],
    status,
    encrypted,
    version: "3.2.4",
    ca_certificate_group: caGroupFor(state, encrypted, undefined),
  };
  state.arrayConnections.set(c.id, c);
  return c;
}

function replication(state: SimState, now: number): void {
  const dr = connection(state, "fb-dr-01", "10.31.0.20", "connected");
  const lab = connection(state, "fb-lab-02", "10.41.0.20", "partially_connected");
  // A retired archive array nothing replicates to any more: `array-connection delete fb-archive-01` removes it.
  connection(state, "fb-archive-01", "10.61.0.20", "connected", false);
  put(state, "/object-store-remote-credentials", [
    {
      name: "fb-dr-01/repl-creds",
      id: state.newId(),
      created: now - 200 * DAY,
      access_key_id: `PSFB${randomLetters(state.rng, 40)}`,
      secret_access_key: null,
      remote: { name: dr.remote.name, id: dr.remote.id, resource_type: "array-connections" },
    },
    // Made for a key rotation, no link switched to it yet (`replica-link bucket credentials` shows the switch).
    {
      name: "fb-dr-01/repl-creds-2",
      id: state.newId(),
      created: now - 2 * DAY,
      // Fixed, not drawn from the seeded generator: the demo's other random values stay what they were.
      access_key_id: "PSFBIAQAAAAAAROTATIONEXAMPLEKEY0000000000",
      secret_access_key: null,
      remote: { name: dr.remote.name, id: dr.remote.id, resource_type: "array-connections" },
    },
  ]);
  const link = (bucket: string, over: Partial<LinkHealth>) => {
    const id = state.newId();
    state.bucketReplicaLinks.set(id, {
      id,
      localBucket: bucket,
      remoteId: dr.id,
      remoteBucket: bucket,
      remoteCredentials: "fb-dr-01/repl-creds",
      ...freshLinkHealth(over),
    });
  };
  link("analytics-curated", {});
  link("veeam-repo", { paused: true, pausedAt: now - 26 * HOUR });
  link("logs-archive", {
    unhealthy: true,
    unhealthySince: now - 5 * HOUR,
    status_details: "The specified bucket does not exist.",
  });
  const fsLink = (
    fs: string,
    remote: ArrayConnectionRec,
    policies: string[],
    over: Partial<LinkHealth> = {},
  ) => {
    const id = state.newId();
    state.fileSystemReplicaLinks.set(id, {
      id,
      localFileSystem: fs,
      remoteId: remote.id,
      remoteFileSystem: fs,
      policies,
      ...freshLinkHealth(over),
    });
  };
  fsLink("projects", dr, ["daily"]);
  fsLink("home", dr, ["daily"]);
  // Back from a six-hour outage twenty minutes ago and still catching up: behind its hourly schedule.
  fsLink("builds", dr, ["hourly"], { resumedAt: now - 20 * 60_000, lagAtResume: 6 * HOUR });
  fsLink("ml-datasets", lab, [], {
    unhealthy: true,
    unhealthySince: now - 2 * HOUR,
    status_details: "Array connection is partially connected.",
  });
  put(state, "/targets", [
    {
      name: "aws-archive",
      id: state.newId(),
      address: "s3.us-west-2.amazonaws.com",
      ca_certificate_group: null,
      status: "connected",
      status_details: "",
    },
    {
      name: "lab-minio",
      id: state.newId(),
      address: "10.41.7.9",
      ca_certificate_group: null,
      status: "connecting",
      status_details: "Connection timed out",
    },
  ]);
  // A snapshot no policy took, sent by hand and still on its way (no schedule makes it, so its name is stable:
  // `snapshot transfer delete home.before-upgrade fb-dr-01` cancels it).
  const started = now - 40 * 60_000;
  put(state, "/file-system-snapshots/transfer", [
    {
      id: "transfer-home-before-upgrade",
      name: "home.before-upgrade",
      direction: "outbound",
      started,
      completed: null,
      progress: 0.35,
      status: "in-progress",
      data_transferred: 480 * 1024 ** 3,
      remote: { id: dr.remote.id, name: dr.remote.name, resource_type: "array-connections" },
      remote_snapshot: { name: "home.before-upgrade", id: null },
    },
  ]);
}

export function seedDemoObjects(state: SimState): void {
  const now = state.clock();
  objectStore(state, now);
  replication(state, now);
}
