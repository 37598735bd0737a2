/**
 * The words every layer of the house shares, declared once at the ground floor: the role ladder, the classes of
 * harm a change can do, and how a duration is written. Config, core, the access policy and the faces import them
 * from here; nothing declares them again (test/architecture/vocabulary.test.ts).
 */

/** The role ladder. Every check compares ranks; nothing branches on role names elsewhere. */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

/** True when `have` is at least `need`; `undefined` (no mapping) satisfies nothing. */
export function roleAtLeast(have: Role | undefined, need: Role): boolean {
  return have !== undefined && RANK[have] >= RANK[need];
}

/** The higher of two roles; undefined counts as no role. */
export function maxRole(a: Role | undefined, b: Role | undefined): Role | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** Guests and deactivated accounts never act above viewer. */
export function capRole(role: Role | undefined, cap: Role): Role | undefined {
  if (role === undefined) return undefined;
  return RANK[role] > RANK[cap] ? cap : role;
}

/** The classes of harm a change can do; each has a gate policy (`destructive:` in the configuration). */
export const DESTRUCTIVE_CLASSES = [
  "eradicate",
  "destroy",
  "shrink_below_usage",
  "quota_below_usage",
  "delete",
  "remove_snapshot_rules",
  "pause_replication",
  "array_settings",
  "raw_api",
  /** Turning a protocol off a file system: its clients lose access. */
  "disable_protocol",
  /** Demoting a file system: data not yet in a replicated snapshot is discarded and it turns read-only. */
  "demote_file_system",
  /** Deleting a bucket replica link, an array connection or a replication target: what it protected stops being copied. */
  "delete_replication",
  /** Removing every name server, the only NTP server or the SMTP relay: a service of the array stops working. */
  "remove_last_server",
  /** Disabling an S3 access key: applications that sign with it get Access Denied at once. */
  "disable_access_key",
] as const;
export type DestructiveClass = (typeof DESTRUCTIVE_CLASSES)[number];

const DURATION_UNITS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** Parses "30m", "24h", "7d", "45s", "2w" (or combinations such as "1h30m") into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?[smhdw])+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) {
    total += Number(m[1]) * (DURATION_UNITS[m[2] ?? ""] ?? 0);
  }
  const ms = Math.round(total);
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}
