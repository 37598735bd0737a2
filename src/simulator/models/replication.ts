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
  /** When a stalled link last started running again, and how far behind it was then: it catches up from there. */
  resumedAt?: number | null;
  lagAtResume?: number;
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

/** A running link sends this many milliseconds of changes per millisecond while it catches up. */
export const CATCH_UP_SPEED = 4;

/** The shortest transfer a scheduled snapshot takes, and the share of its interval a transfer takes at most. */
const MIN_TRANSFER_MS = 30_000;
const TRANSFER_SHARE = 0.02;

export function transferTime(every: number): number {
  return Math.max(MIN_TRANSFER_MS, Math.floor(every * TRANSFER_SHARE));
}

/** When a policy's snapshots are taken: every `every` ms, `at` ms into each period (a daily rule's 02:00). */
export interface Schedule {
  every: number;
  at: number;
}

/** The newest scheduled snapshot time at or before `t`. */
export function newestSnapshot(s: Schedule, t: number): number {
  return Math.floor((t - s.at) / s.every) * s.every + s.at;
}

/** The recovery point of a link on schedule `s`: the newest snapshot whose transfer had finished at `t`. */
export function scheduledRecoveryPoint(s: Schedule, t: number): number {
  const newest = newestSnapshot(s, t);
  return t - newest >= transferTime(s.every) ? newest : newest - s.every;
}

/** When the link stopped (paused or broken), or null while it runs. */
export function stalledSince(h: LinkHealth): number | null {
  return h.paused ? h.pausedAt : h.unhealthy ? h.unhealthySince : null;
}

/**
 * Lag grows while a link is paused or broken. Running, a bucket link (continuous) lags a few seconds (a seeded
 * wobble); a file system link with a policy lags since its newest transferred snapshot (a sawtooth on the schedule). After a
 * stall the link catches up at CATCH_UP_SPEED, so the lag shrinks rather than vanishing.
 */
export function linkLag(h: LinkHealth, now: number, seed: number, key: number, schedule?: Schedule): number {
  const stalled = stalledSince(h);
  if (stalled !== null) {
    const rp =
      schedule === undefined ? stalled : Math.min(stalled, scheduledRecoveryPoint(schedule, stalled));
    return Math.max(0, now - rp);
  }
  const steady =
    schedule === undefined
      ? 2_000 + Math.floor(noise(seed, key, Math.floor(now / 60_000)) * 8_000)
      : now - scheduledRecoveryPoint(schedule, now);
  if (h.resumedAt === undefined || h.resumedAt === null) return steady;
  const catching = (h.lagAtResume ?? 0) - (now - h.resumedAt) * (CATCH_UP_SPEED - 1);
  return Math.max(steady, catching);
}

/** Marks a link running again, remembering how far behind it is so the lag shrinks from there. */
export function resume(h: LinkHealth, now: number, lagNow: number): void {
  h.resumedAt = now;
  h.lagAtResume = lagNow;
}
