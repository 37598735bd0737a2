/**
 * "fb-lab-01"-style demo array: a dozen file systems with mixed protocols and the capacity troubles admins ask
 * about (near and over provisioned, a hard limit about to bite, a destroyed file system holding space), with
 * snapshots, policies and quotas; object store, replication and alerts come from the sibling files.
 */
import { blankFileSystem, type FileSystemRec } from "../models/file-system.js";
import { checkDestroy } from "../models/file-system-rules.js";
import { type PolicyRuleRec, ruleKey } from "../models/policy.js";
import { quotaKey } from "../models/quota.js";
import { newestSnapshot } from "../models/replication.js";
import { addSnapshot, type SnapshotRec } from "../models/snapshot.js";
import type { SimState } from "../state.js";
import { seedDemo2x } from "./demo-2x.js";
import { seedDemoAdmin } from "./demo-admin.js";
import { seedDemoAlerts } from "./demo-alerts.js";
import { seedDemoFamilies } from "./demo-families.js";
import { seedDemoObjects } from "./demo-objects.js";
import { seedInfrastructure } from "./infrastructure.js";
import { DAY, GIB, HOUR, TIB } from "./units.js";

export interface FsSpec {
  name: string;
  /** Provisioned TiB (0 = unlimited) and logical usage TiB. */
  size: number;
  used: number;
  protocols: ("nfs3" | "nfs4" | "smb" | "http")[];
  hard?: boolean;
  reduction?: number;
  snapshotsTiB?: number;
  destroyedHoursAgo?: number;
  ageDays: number;
}

const FILE_SYSTEMS: FsSpec[] = [
  { name: "home", size: 20, used: 12.4, protocols: ["nfs3", "nfs4", "smb"], ageDays: 900, snapshotsTiB: 1.1 },
  { name: "projects", size: 50, used: 46.8, protocols: ["nfs3", "nfs4"], ageDays: 700, snapshotsTiB: 3.2 },
  { name: "scratch", size: 5, used: 5.6, protocols: ["nfs3"], ageDays: 400, reduction: 1.2 },
  {
    name: "builds",
    size: 10,
    used: 9.7,
    protocols: ["nfs3", "nfs4"],
    hard: true,
    ageDays: 500,
    snapshotsTiB: 0.4,
  },
  { name: "ml-datasets", size: 120, used: 71.3, protocols: ["nfs4"], ageDays: 300, reduction: 1.4 },
  { name: "vm-images", size: 30, used: 18.2, protocols: ["nfs3"], ageDays: 650, reduction: 3.1 },
  { name: "backups", size: 0, used: 88.5, protocols: ["nfs3"], ageDays: 800, reduction: 4.2 },
  { name: "logs", size: 8, used: 7.3, protocols: ["nfs3", "http"], ageDays: 600, reduction: 5.6 },
  { name: "db-dumps", size: 15, used: 6.1, protocols: ["nfs4"], hard: true, ageDays: 200, reduction: 2.8 },
  { name: "media", size: 40, used: 31.9, protocols: ["smb"], ageDays: 550, reduction: 1.05 },
  { name: "finance", size: 2, used: 1.86, protocols: ["smb"], hard: true, ageDays: 1000, snapshotsTiB: 0.2 },
  { name: "old-share", size: 6, used: 4.4, protocols: ["smb"], ageDays: 1200, destroyedHoursAgo: 3 },
];

export function addFileSystem(state: SimState, s: FsSpec, now: number): FileSystemRec {
  const fs = blankFileSystem(state.newId(), s.name, now - s.ageDays * DAY);
  fs.provisioned = Math.round(s.size * TIB);
  fs.hard_limit_enabled = s.hard ?? false;
  fs.nfs.v3_enabled = s.protocols.includes("nfs3");
  fs.nfs.v4_1_enabled = s.protocols.includes("nfs4");
  fs.nfs.rules = "10.21.0.0/16(rw,no_root_squash) *(ro)";
  fs.smb.enabled = s.protocols.includes("smb");
  fs.smb.acl_mode = fs.smb.enabled ? "native" : "shared";
  fs.http.enabled = s.protocols.includes("http");
  fs.multi_protocol.access_control_style =
    fs.smb.enabled && fs.nfs.v3_enabled ? "shared" : fs.smb.enabled ? "smb" : "nfs";
  fs.default_user_quota = s.name === "home" ? 50 * GIB : 0;
  fs.space.data_reduction = s.reduction ?? 1.6;
  fs.space.virtual = Math.round(s.used * TIB);
  fs.space.unique = Math.round(fs.space.virtual / fs.space.data_reduction);
  fs.space.snapshots = Math.round((s.snapshotsTiB ?? 0) * TIB);
  if (s.destroyedHoursAgo !== undefined) {
    // Destroyed as a client destroys: protocols off in the destroying request (arrays refuse it otherwise).
    const off = {
      nfs: { v3_enabled: false, v4_1_enabled: false },
      smb: { enabled: false },
      http: { enabled: false },
    };
    checkDestroy(state, { deleteLinkOnEradication: false }, fs, { ...off, destroyed: true });
    fs.nfs.v3_enabled = false;
    fs.nfs.v4_1_enabled = false;
    fs.smb.enabled = false;
    fs.http.enabled = false;
    fs.destroyed = true;
    fs.destroyedAt = now - s.destroyedHoursAgo * HOUR;
  }
  state.fileSystems.set(fs.name, fs);
  return fs;
}

export const DAILY: PolicyRuleRec = { every: DAY, keep_for: 7 * DAY, at: 2 * HOUR, time_zone: "UTC" };
const HOURLY: PolicyRuleRec = { every: HOUR, keep_for: DAY, at: null, time_zone: null };
const WEEKLY: PolicyRuleRec = { every: 7 * DAY, keep_for: 28 * DAY, at: 3 * HOUR, time_zone: "UTC" };

export function addPolicy(
  state: SimState,
  name: string,
  enabled: boolean,
  rules: PolicyRuleRec[],
  members: string[],
) {
  const p = { id: state.newId(), name, enabled, rules, members: new Set(members) };
  state.policies.set(name, p);
  return p;
}

function snapshots(state: SimState, now: number): void {
  const daily = addPolicy(state, "daily", true, [DAILY, WEEKLY], ["home", "projects", "finance"]);
  const hourly = addPolicy(state, "hourly", true, [HOURLY], ["builds"]);
  addPolicy(
    state,
    "archive-monthly",
    false,
    [{ every: 28 * DAY, keep_for: 365 * DAY, at: 4 * HOUR, time_zone: "UTC" }],
    [],
  );
  const add = (fs: string, suffix: string, created: number, made: SnapshotRec["policy"] = null) => {
    const src = state.fileSystems.get(fs);
    if (src) addSnapshot(state, src, suffix, created, made);
  };
  // A policy's snapshots are taken on its rule's schedule: the k-th newest `every` before the newest. A weekly
  // rule's day is the one the policy started on: here its latest run is a day older than the oldest daily
  // snapshot kept, so whichever hour the demo starts, a snapshot's age tells which rule made it.
  const taken = (
    fs: string,
    p: typeof daily,
    rule: PolicyRuleRec,
    word: string,
    count: number,
    newest: number,
  ) => {
    for (let k = 1; k <= count; k++) {
      const made = { id: p.id, name: p.name, ruleKey: ruleKey(rule) };
      add(fs, `${word}.${k}`, newest - (k - 1) * rule.every, made);
    }
  };
  const onSchedule = (rule: PolicyRuleRec) =>
    newestSnapshot({ every: rule.every, at: (rule.at ?? 0) % rule.every }, now);
  for (const fs of ["home", "projects", "finance"]) {
    taken(fs, daily, DAILY, "daily", 7, onSchedule(DAILY));
    taken(fs, daily, WEEKLY, "weekly", 3, onSchedule(DAILY) + HOUR - 8 * DAY);
  }
  taken("builds", hourly, HOURLY, "hourly", 24, onSchedule(HOURLY));
  add("home", "before-upgrade", now - 24 * 40 * HOUR);
  add("projects", "q3-close", now - 24 * 75 * HOUR);
  add("ml-datasets", "v2-frozen", now - 24 * 20 * HOUR);
  add("old-share", "final", now - 24 * 5 * HOUR);
  const destroyed = state.snapshots.get("projects.q3-close");
  if (destroyed) {
    destroyed.destroyed = true;
    destroyed.destroyedAt = now - 6 * HOUR;
  }
  state.snapshotSeq = 100;
}

function quotas(state: SimState): void {
  const user = (fs: string, uid: number, quotaGiB: number | null, usedGiB: number) => {
    if (quotaGiB !== null)
      state.users.quotas.set(quotaKey(fs, uid), { fileSystem: fs, subject: uid, quota: quotaGiB * GIB });
    state.users.usage.set(quotaKey(fs, uid), Math.round(usedGiB * GIB));
  };
  user("home", 1001, 100, 95.2); // alice: 95 %
  user("home", 1002, 100, 41.7);
  user("home", 1003, 50, 49.6); // carol: 99 %
  user("home", 1004, 50, 62.3); // dave: over (quota set below existing usage)
  user("home", 1005, null, 12.8); // erin: only the file system default applies
  user("scratch", 1006, 500, 310);
  user("builds", 2001, 2048, 1980); // svc-build: 97 %
  user("backups", 2002, null, 40_960);
  const group = (fs: string, gid: number, quotaGiB: number | null, usedGiB: number) => {
    if (quotaGiB !== null)
      state.groups.quotas.set(quotaKey(fs, gid), { fileSystem: fs, subject: gid, quota: quotaGiB * GIB });
    state.groups.usage.set(quotaKey(fs, gid), Math.round(usedGiB * GIB));
  };
  group("projects", 3001, 20_480, 19_600); // engineering: 96 %
  group("projects", 3002, 10_240, 4_100);
  group("finance", 3003, 2_048, 1_880); // 92 %
  group("ml-datasets", 3002, null, 30_000);
}

export function seedDemo(state: SimState): void {
  seedInfrastructure(state, { blades: 10, unhealthy: ["CH1.FB5"] });
  const now = state.clock();
  for (const spec of FILE_SYSTEMS) addFileSystem(state, spec, now);
  snapshots(state, now);
  quotas(state);
  seedDemoObjects(state);
  seedDemoAlerts(state);
  seedDemoAdmin(state);
  // The generic 2.x objects first: the families' seed puts one of them (a node) in a node group.
  seedDemo2x(state);
  seedDemoFamilies(state);
}
