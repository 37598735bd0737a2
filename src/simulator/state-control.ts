/**
 * Changes the simulated world makes on its own (alerts, usage growth, broken links, failing hardware), for
 * tests and for the simulator's control interface. Unknown objects are a 404 SimHttpError.
 */
import type { AlertRec, AlertState, Severity } from "./models/alert.js";
import { ERADICATION_DELAY_MS, setLogicalUsage } from "./models/file-system.js";
import { ruleKey } from "./models/policy.js";
import { quotaKey } from "./models/quota.js";
import { type FileSystemReplicaLinkRec, type LinkHealth, resume } from "./models/replication.js";
import { addSnapshot, type SnapshotRec } from "./models/snapshot.js";
import { eradicateFileSystem } from "./resources/file-system-removal.js";
import { currentLag, fsLinkLag } from "./resources/link-common.js";
import type { SimState } from "./state.js";
import { SimHttpError } from "./types.js";

function notFound(what: string): SimHttpError {
  return new SimHttpError(404, `${what} does not exist.`);
}

export interface NewAlert {
  code: number;
  severity: Severity;
  component: string;
  subject: string;
  description?: string;
  action?: string;
  knowledge_base_url?: string;
  variables?: Record<string, string>;
  state?: AlertState;
  flagged?: boolean;
  /** Defaults to now. */
  created?: number;
}

export function raiseAlert(state: SimState, a: NewAlert): AlertRec {
  const now = state.clock();
  state.alertSeq += 1;
  const created = a.created ?? now;
  const rec: AlertRec = {
    id: state.newId(),
    index: state.alertSeq,
    code: a.code,
    severity: a.severity,
    component: a.component,
    state: a.state ?? "open",
    flagged: a.flagged ?? false,
    created,
    updated: created,
    notified: created,
    subject: a.subject,
    description: a.description ?? a.subject,
    knowledge_base_url: a.knowledge_base_url ?? `https://support.purestorage.com/?cid=Alert_${a.code}`,
    action: a.action ?? "",
    variables: { ...(a.variables ?? {}) },
  };
  state.alerts.set(rec.index, rec);
  return rec;
}

export interface AlertChange {
  severity?: Severity;
  state?: AlertState;
  subject?: string;
  description?: string;
  variables?: Record<string, string>;
}

export function updateAlert(state: SimState, index: number, change: AlertChange): AlertRec {
  const a = state.alerts.get(index);
  if (!a) throw notFound(`Alert ${index}`);
  const now = state.clock();
  const escalated = change.severity !== undefined && rank(change.severity) > rank(a.severity);
  Object.assign(a, change);
  a.updated = now;
  if (escalated) a.notified = now;
  return a;
}

function rank(s: Severity): number {
  return s === "critical" ? 2 : s === "warning" ? 1 : 0;
}

export function closeAlert(state: SimState, index: number): AlertRec {
  return updateAlert(state, index, { state: "closed" });
}

/** Sets a file system's logical usage (space.virtual) and, optionally, its snapshot bytes and reduction. */
export function setFileSystemUsage(
  state: SimState,
  name: string,
  bytes: number,
  opts: { snapshots?: number; dataReduction?: number } = {},
): void {
  const fs = state.fileSystems.get(name);
  if (!fs) throw notFound(`File system '${name}'`);
  if (opts.dataReduction !== undefined) fs.space.data_reduction = Math.max(1, opts.dataReduction);
  if (opts.snapshots !== undefined) fs.space.snapshots = Math.max(0, Math.round(opts.snapshots));
  setLogicalUsage(fs.space, bytes);
}

export function setBucketUsage(state: SimState, name: string, bytes: number, objects?: number): void {
  const b = state.buckets.get(name);
  if (!b) throw notFound(`Bucket '${name}'`);
  setLogicalUsage(b.space, bytes);
  if (objects !== undefined) b.object_count = Math.max(0, Math.round(objects));
}

/** Bytes a user (uid or directory name) or group uses on a file system. */
export function setQuotaUsage(
  state: SimState,
  kind: "user" | "group",
  fileSystem: string,
  who: number | string,
  bytes: number,
): void {
  if (!state.fileSystems.has(fileSystem)) throw notFound(`File system '${fileSystem}'`);
  const tables = kind === "user" ? state.users : state.groups;
  const id = typeof who === "number" ? who : tables.directory.find((d) => d.name === who)?.id;
  if (id === undefined) throw notFound(`${kind === "user" ? "User" : "Group"} '${who}'`);
  tables.usage.set(quotaKey(fileSystem, id), Math.max(0, Math.round(bytes)));
}

export type LinkStatus = "replicating" | "paused" | "unhealthy";

/** Breaks, pauses or heals a replica link, chosen by its local bucket or file system name. */
export function setReplicaLinkStatus(
  state: SimState,
  link: { bucket: string } | { fileSystem: string },
  status: LinkStatus,
  details = "",
): void {
  const links: (LinkHealth & { id: string } & Partial<FileSystemReplicaLinkRec>)[] =
    "bucket" in link
      ? [...state.bucketReplicaLinks.values()].filter((l) => l.localBucket === link.bucket)
      : [...state.fileSystemReplicaLinks.values()].filter((l) => l.localFileSystem === link.fileSystem);
  if (links.length === 0)
    throw notFound(`Replica link of '${"bucket" in link ? link.bucket : link.fileSystem}'`);
  const now = state.clock();
  for (const l of links) {
    const wasStalled = l.paused || l.unhealthy;
    if (wasStalled && status === "replicating") {
      const lagNow =
        "localFileSystem" in l ? fsLinkLag(state, l as FileSystemReplicaLinkRec) : currentLag(state, l, l.id);
      resume(l, now, lagNow);
    }
    l.paused = status === "paused";
    l.pausedAt = l.paused ? (l.pausedAt ?? now) : null;
    l.unhealthy = status === "unhealthy";
    l.unhealthySince = l.unhealthy ? (l.unhealthySince ?? now) : null;
    l.status_details = details;
  }
}

export function setArrayConnectionStatus(
  state: SimState,
  remoteName: string,
  status: "connected" | "partially_connected" | "connecting" | "incompatible",
): void {
  const c = [...state.arrayConnections.values()].find((x) => x.remote.name === remoteName);
  if (!c) throw notFound(`Array connection to '${remoteName}'`);
  c.status = status;
}

/** Marks a hardware component (and the blade of the same name) healthy, unhealthy, critical… */
export function setHardwareStatus(
  state: SimState,
  name: string,
  status: string,
  details: string | null = null,
): void {
  let found = false;
  for (const path of ["/hardware", "/blades"]) {
    const item = state.generic.get(path)?.items.get(name);
    if (item) {
      item["status"] = status;
      item["details"] = details;
      found = true;
    }
  }
  if (!found) throw notFound(`Hardware component '${name}'`);
}

/**
 * Takes the snapshots a policy's rule would take now, on every member and on the source of every replica link
 * that carries the policy (the link sends what the policy takes); returns them.
 */
export function runPolicy(state: SimState, policyName: string, ruleIndex = 0): SnapshotRec[] {
  const p = state.policies.get(policyName);
  const rule = p?.rules[ruleIndex];
  if (!p || !rule) throw notFound(`Policy '${policyName}' rule ${ruleIndex}`);
  const now = state.clock();
  const out: SnapshotRec[] = [];
  const linked = [...state.fileSystemReplicaLinks.values()]
    .filter((l) => l.direction === "outbound" && l.policies.includes(p.name))
    .map((l) => l.localFileSystem);
  for (const member of new Set([...p.members, ...linked])) {
    const fs = state.fileSystems.get(member);
    if (!fs || fs.destroyed) continue;
    state.snapshotSeq += 1;
    const policy = { id: p.id, name: p.name, ruleKey: ruleKey(rule) };
    const snap = addSnapshot(state, fs, `${p.name}.${state.snapshotSeq}`, now, policy);
    out.push(snap);
  }
  return out;
}

/**
 * What the array does when the timer of destroyed objects runs out (24 hours; `delayMs` lets the load test
 * compress it, so its arrays stay the size of a steady fleet).
 */
export function eradicateExpired(state: SimState, delayMs = ERADICATION_DELAY_MS): string[] {
  const now = state.clock();
  const gone: string[] = [];
  const expired = (at: number | null) => at !== null && now - at >= delayMs;
  for (const fs of [...state.fileSystems.values()]) {
    if (fs.destroyed && expired(fs.destroyedAt)) {
      eradicateFileSystem(state, fs);
      gone.push(fs.name);
    }
  }
  for (const s of [...state.snapshots.values()]) {
    if (s.destroyed && expired(s.destroyedAt)) {
      state.snapshots.delete(s.name);
      gone.push(s.name);
    }
  }
  for (const b of [...state.buckets.values()]) {
    if (b.destroyed && expired(b.destroyedAt)) {
      state.buckets.delete(b.name);
      gone.push(b.name);
    }
  }
  return gone;
}
