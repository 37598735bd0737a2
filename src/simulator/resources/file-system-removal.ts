/** Eradication of a file system and everything that only exists because of it. */
import type { FileSystemRec } from "../models/file-system.js";
import type { QuotaTables } from "../models/quota.js";
import type { SimState } from "../state.js";
import { forgetFileSystem } from "./file-system-families.js";

function dropQuotas(tables: QuotaTables, fsName: string): void {
  const prefix = `${fsName}\u0000`;
  for (const key of [...tables.quotas.keys()]) if (key.startsWith(prefix)) tables.quotas.delete(key);
  for (const key of [...tables.usage.keys()]) if (key.startsWith(prefix)) tables.usage.delete(key);
}

export function eradicateFileSystem(state: SimState, fs: FileSystemRec): void {
  state.fileSystems.delete(fs.name);
  forgetFileSystem(state, fs.name);
  for (const [name, snap] of state.snapshots) if (snap.sourceId === fs.id) state.snapshots.delete(name);
  dropQuotas(state.users, fs.name);
  dropQuotas(state.groups, fs.name);
  for (const p of state.policies.values()) p.members.delete(fs.name);
  for (const [id, link] of state.fileSystemReplicaLinks) {
    if (link.localFileSystem === fs.name) state.fileSystemReplicaLinks.delete(id);
  }
}
