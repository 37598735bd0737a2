/** Array connections and replica links (1.9+). */
import { noise } from "./random.js";

export type ConnectionStatus = "connected" | "partially_connected" | "connecting" | "incompatible";

export interface ArrayConnectionRec {
  id: string;
  remote: { id: string; name: string };
  management_address: string;
  replication_addresses: string[];
  status: ConnectionStatus;
  encrypted: boolean;
  version: string;
  ca_certificate_group: { name: string; id: string; resource_type: string } | null;
}

export function renderArrayConnection(c: ArrayConnectionRec): Record<string, unknown> {
  return {
    id: c.id,
    ca_certificate_group: c.ca_certificate_group,
    management_address: c.management_address,
    replication_addresses: [...c.replication_addresses],
    status: c.status,
    encrypted: c.encrypted,
    remote: { ...c.remote },
    version: c.version,
  };
}

/** State shared by bucket and file system replica links. */
export interface LinkHealth {
  paused: boolean;
  pausedAt: number | null;
  /** Set by the control interface; a broken link stops advancing its recovery point. */
  unhealthy: boolean;
  unhealthySince: number | null;
  status_details: string;
  direction: "outbound" | "inbound";
}

export interface BucketReplicaLinkRec extends LinkHealth {
  id: string;
  localBucket: string;
  remoteId: string;
  remoteBucket: string;
  remoteCredentials: string;
}

export interface FileSystemReplicaLinkRec extends LinkHealth {
  id: string;
  localFileSystem: string;
  remoteId: string;
  remoteFileSystem: string;
  policies: string[];
}

/** A new link: running, healthy, outbound. */
export function freshLinkHealth(over: Partial<LinkHealth> = {}): LinkHealth {
  return {
    paused: false,
    pausedAt: null,
    unhealthy: false,
    unhealthySince: null,
    status_details: "",
    direction: "outbound",
    ...over,
  };
}

export function linkStatus(h: LinkHealth): "replicating" | "paused" | "unhealthy" {
  if (h.paused) return "paused";
  return h.unhealthy ? "unhealthy" : "replicating";
}

/** Lag grows while a link is paused or broken; a healthy link lags a few seconds (a seeded wobble). */
export function linkLag(h: LinkHealth, now: number, seed: number, key: number): number {
  const stalledSince = h.paused ? h.pausedAt : h.unhealthy ? h.unhealthySince : null;
  if (stalledSince !== null) return Math.max(0, now - stalledSince);
  return 2_000 + Math.floor(noise(seed, key, Math.floor(now / 60_000)) * 8_000);
}
