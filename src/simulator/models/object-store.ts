/** Object store accounts, users, access keys, buckets and lifecycle rules. */
import { atLeast } from "../../rest-spec/versions.js";
import { renderSpace, type SpaceRec, timeRemaining } from "./file-system.js";
import { type FieldGate, gateFields } from "./versioned.js";

export interface AccountRec {
  id: string;
  name: string;
  created: number;
  /** REST 2.8+: the account's quota in bytes and whether it is enforced (PATCH /object-store-accounts). */
  quota_limit?: number | null;
  hard_limit_enabled?: boolean;
}

export interface ObjectUserRec {
  id: string;
  /** `account/user`. */
  name: string;
  account: string;
  created: number;
  full_access: boolean;
}

export interface AccessKeyRec {
  id: string;
  /** The access key id itself. */
  name: string;
  user: string;
  created: number;
  enabled: boolean;
  secret: string;
}

export type Versioning = "none" | "enabled" | "suspended";

export interface BucketRec {
  id: string;
  name: string;
  account: string;
  created: number;
  destroyed: boolean;
  destroyedAt: number | null;
  versioning: Versioning;
  object_count: number;
  space: SpaceRec;
}

export interface LifecycleRuleRec {
  id: string;
  bucket: string;
  rule_id: string;
  enabled: boolean;
  keep_previous_version_for: number;
  prefix: string;
}

export function ref(
  name: string,
  id: string,
  resourceType: string,
): { name: string; id: string; resource_type: string } {
  return { name, id, resource_type: resourceType };
}

const BUCKET_GATES: readonly FieldGate[] = [
  ["object_count", "1.4"],
  ["account", "1.5"],
  ["destroyed", "1.5"],
  ["time_remaining", "1.5"],
  ["versioning", "1.6"],
  ["id", "1.8"],
];

export function renderBucket(
  b: BucketRec,
  version: string,
  now: number,
  accountId: string,
): Record<string, unknown> {
  return gateFields(
    {
      name: b.name,
      created: b.created,
      space: renderSpace(b.space),
      object_count: b.object_count,
      account: ref(b.account, accountId, "object-store-accounts"),
      destroyed: b.destroyed,
      time_remaining: timeRemaining(b.destroyedAt, now),
      versioning: b.versioning,
      id: b.id,
    },
    version,
    BUCKET_GATES,
  );
}

const ACCOUNT_GATES: readonly FieldGate[] = [
  ["object_count", "1.4"],
  ["id", "1.8"],
];

/** An account's space and object count are the sums over its buckets. */
export function renderAccount(
  a: AccountRec,
  version: string,
  buckets: readonly BucketRec[],
): Record<string, unknown> {
  const space: SpaceRec = { virtual: 0, unique: 0, snapshots: 0, data_reduction: 1 };
  let objects = 0;
  let physical = 0;
  for (const b of buckets) {
    space.virtual += b.space.virtual;
    space.unique += b.space.unique;
    space.snapshots += b.space.snapshots;
    physical += b.space.unique;
    objects += b.object_count;
  }
  space.data_reduction = physical > 0 ? Math.round((space.virtual / physical) * 100) / 100 : 1;
  // Shown once set (an account without a quota answers as before): 2.8 added them to the account's PATCH.
  const quota =
    atLeast(version, "2.8") && (a.quota_limit !== undefined || a.hard_limit_enabled !== undefined)
      ? { quota_limit: a.quota_limit ?? null, hard_limit_enabled: a.hard_limit_enabled ?? false }
      : {};
  return gateFields(
    {
      name: a.name,
      created: a.created,
      space: renderSpace(space),
      object_count: objects,
      id: a.id,
      ...quota,
    },
    version,
    ACCOUNT_GATES,
  );
}

const USER_GATES: readonly FieldGate[] = [["id", "1.8"]];

export function renderObjectUser(
  u: ObjectUserRec,
  version: string,
  accountId: string,
  keys: readonly AccessKeyRec[],
): Record<string, unknown> {
  return gateFields(
    {
      name: u.name,
      created: u.created,
      account: ref(u.account, accountId, "object-store-accounts"),
      access_keys: keys.map((k) => ref(k.name, k.id, "object-store-access-keys")),
      id: u.id,
    },
    version,
    USER_GATES,
  );
}

const KEY_GATES: readonly FieldGate[] = [["id", "1.8", "1.9"]];

/** The secret is only ever shown in the answer to the create call. */
export function renderAccessKey(
  k: AccessKeyRec,
  version: string,
  userId: string,
  withSecret: boolean,
): Record<string, unknown> {
  return gateFields(
    {
      name: k.name,
      created: k.created,
      user: ref(k.user, userId, "object-store-users"),
      enabled: k.enabled,
      secret_access_key: withSecret ? k.secret : null,
      id: k.id,
    },
    version,
    KEY_GATES,
  );
}

const RULE_GATES: readonly FieldGate[] = [["id", "1.12"]];

export function renderLifecycleRule(
  r: LifecycleRuleRec,
  version: string,
  bucketId: string,
): Record<string, unknown> {
  return gateFields(
    {
      name: `${r.bucket}/${r.rule_id}`,
      bucket: ref(r.bucket, bucketId, "buckets"),
      enabled: r.enabled,
      rule_id: r.rule_id,
      keep_previous_version_for: r.keep_previous_version_for,
      prefix: r.prefix,
      id: r.id,
    },
    version,
    RULE_GATES,
  );
}

/** An object store access policy (1.12) and the users it applies to. */
export interface AccessPolicyRec {
  id: string;
  name: string;
  /** Object store user names (`account/user`). */
  members: Set<string>;
  /** An account's own policy (`account/policy`, made through 2.x); built-in ones have none. */
  account?: string;
  description?: string;
  created?: number;
  rules: AccessRuleRec[];
}

/** One statement of a policy, named within it (PolicyRuleObjectAccess, 2.2+). */
export interface AccessRuleRec {
  name: string;
  actions: string[];
  effect: string;
  resources: string[];
  conditions?: Record<string, unknown>;
}

/** The policies a 1.12 array ships; users are attached to them (custom policies came with REST 2). */
export const BUILT_IN_ACCESS_POLICIES = [
  "pure:policy/full-access",
  "pure:policy/bucket-create",
  "pure:policy/bucket-delete",
  "pure:policy/bucket-list",
  "pure:policy/object-delete",
  "pure:policy/object-list",
  "pure:policy/object-read",
  "pure:policy/object-write",
] as const;

export const FULL_ACCESS_POLICY = "pure:policy/full-access";
