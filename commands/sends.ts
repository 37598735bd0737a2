/**
 * What each hand-written command sends, declared: `METHOD /path` for each request, with `{facet}` after it when
 * several verbs send the same changing METHOD + path for different purposes (`fs destroy` and `fs recover` both
 * PATCH /file-systems, one with destroyed: true, the other with false). The catalogue's verbs declare theirs from
 * their data (commands/catalogue/generic/build.ts); `api` declares `METHOD *` in commands/api.ts. The registry
 * checks at start-up that every command declares what it sends, that its role is at least what the access policy
 * (src/rest-spec/policy.ts) needs for each, and that no two verbs own one changing endpoint and facet; a test runs
 * every example on the demo arrays and checks that what it sends is within what its command declares.
 */

import { commandId } from "../src/core/command-path.js";
import type { ResourceDefinition } from "../src/core/define-command.js";

export const HAND_WRITTEN_SENDS: Readonly<Record<string, readonly string[]>> = {
  "access-key.create": ["POST /object-store-access-keys"],
  "access-key.delete": ["DELETE /object-store-access-keys"],
  "access-key.disable": ["PATCH /object-store-access-keys {enabled: false}"],
  "access-key.enable": ["PATCH /object-store-access-keys {enabled: true}"],
  "access-key.import": ["POST /object-store-access-keys {secret_access_key}"],
  "access-key.list": ["GET /object-store-access-keys"],
  "access-key.rotate": ["POST /object-store-access-keys {rotate: a new key beside the old}"],
  "alert.flag": ["GET /alerts", "PATCH /alerts {flagged: true}"],
  "alert.list": ["GET /alerts"],
  "alert.routes": [],
  "alert.show": ["GET /alerts"],
  "alert.test": [],
  "alert.unflag": ["GET /alerts", "PATCH /alerts {flagged: false}"],
  "array-connection.create": [
    "GET /array-connections",
    "POST /array-connections",
    "GET /array-connections/connection-key",
  ],
  "array-connection.delete": ["GET /array-connections", "DELETE /array-connections"],
  "array-connection.key.create": ["POST /array-connections/connection-key"],
  "array-connection.list": ["GET /array-connections"],
  "arrays.list": [],
  "bucket.create": ["POST /buckets", "PATCH /buckets {versioning: on create}"],
  "bucket.list": ["GET /buckets"],
  "bucket.perf": ["GET /buckets/performance"],
  "bucket.update": ["PATCH /buckets"],
  "diagnose.show": [
    "GET /alerts",
    "GET /arrays/clients/performance",
    "GET /arrays/performance",
    "GET /arrays/space",
    "GET /bucket-replica-links",
    "GET /buckets/performance",
    "GET /file-system-replica-links",
    "GET /file-systems/groups/performance",
    "GET /file-systems/performance",
    "GET /file-systems/users/performance",
  ],
  // The policy of a new file system, attached right after it is made (policy attach for existing ones).
  "fs.create": ["POST /file-systems", "POST /policies/file-systems {new file system}"],
  "fs.list": ["GET /file-systems"],
  "fs.resize": ["PATCH /file-systems {provisioned}"],
  "fs.show": [
    "GET /file-system-replica-links",
    "GET /file-system-snapshots",
    "GET /file-systems",
    "GET /policies/file-systems",
  ],
  "fs.top": ["GET /buckets", "GET /file-systems"],
  "fs.update": ["PATCH /file-systems", "POST /policies/file-systems {existing file system}"],
  "history.show": [],
  "lifecycle-rule.create": ["POST /lifecycle-rules"],
  "lifecycle-rule.delete": ["DELETE /lifecycle-rules"],
  "lifecycle-rule.list": ["GET /lifecycle-rules"],
  "lifecycle-rule.update": ["PATCH /lifecycle-rules"],
  "object-account.create": ["POST /object-store-accounts"],
  "object-account.delete": ["DELETE /object-store-accounts"],
  "object-account.list": ["GET /buckets", "GET /object-store-accounts", "GET /object-store-users"],
  "object-user.create": ["POST /object-store-users"],
  "object-user.delete": ["DELETE /object-store-users"],
  "object-user.list": ["GET /object-store-users"],
  "perf.show": ["GET /arrays/performance"],
  "policy.attach": ["POST /policies/file-system-replica-links", "POST /policies/file-systems"],
  "policy.create": ["POST /policies"],
  "policy.delete": ["DELETE /policies"],
  "policy.detach": ["DELETE /policies/file-system-replica-links", "DELETE /policies/file-systems"],
  "policy.gaps": [
    "GET /file-system-replica-links",
    "GET /file-systems",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
  ],
  "policy.list": ["GET /policies", "GET /policies/file-system-replica-links", "GET /policies/file-systems"],
  "policy.members": [
    "GET /file-system-snapshots",
    "GET /policies",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
  ],
  "policy.show": [
    "GET /file-system-snapshots",
    "GET /policies",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
  ],
  "policy.update": ["PATCH /policies"],
  "quota.defaults": ["PATCH /file-systems {default_user_quota, default_group_quota}"],
  "quota.delete": ["DELETE /quotas/groups", "DELETE /quotas/users"],
  "quota.list": ["GET /quotas/users"],
  "quota.notify": ["PATCH /quotas/settings"],
  "quota.set": ["PATCH /quotas/groups", "PATCH /quotas/users", "POST /quotas/groups", "POST /quotas/users"],
  "quota.settings": ["GET /quotas/settings"],
  "remote-credentials.create": [
    "GET /object-store-remote-credentials",
    "POST /object-store-remote-credentials",
    "POST /object-store-access-keys {on the remote array}",
  ],
  "remote-credentials.delete": ["DELETE /object-store-remote-credentials"],
  "remote-credentials.list": ["GET /object-store-remote-credentials"],
  "remote-credentials.rotate": [
    "GET /object-store-remote-credentials",
    "PATCH /object-store-remote-credentials {secret_access_key}",
    "POST /object-store-access-keys {on the remote array, rotating}",
  ],
  "replica-link.bucket.create": ["POST /bucket-replica-links"],
  "replica-link.bucket.credentials": ["PATCH /bucket-replica-links {remote_credentials}"],
  "replica-link.bucket.delete": ["DELETE /bucket-replica-links"],
  "replica-link.bucket.list": ["GET /bucket-replica-links"],
  "replica-link.bucket.pause": ["PATCH /bucket-replica-links {paused: true}"],
  "replica-link.bucket.resume": ["PATCH /bucket-replica-links {paused: false}"],
  "replica-link.fs.create": ["POST /file-system-replica-links"],
  "replica-link.fs.list": ["GET /file-system-replica-links", "GET /file-system-replica-links/transfer"],
  "replication.perf": [
    "GET /array-connections/performance/replication",
    "GET /arrays/performance/replication",
    "GET /targets/performance/replication",
  ],
  "replication.status": [
    "GET /array-connections",
    "GET /array-connections/path",
    "GET /bucket-replica-links",
    "GET /file-system-replica-links",
    "GET /file-system-replica-links/transfer",
    "GET /file-system-snapshots/transfer",
    "GET /file-systems",
    "GET /object-store-remote-credentials",
    "GET /policies",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
    "GET /targets",
  ],
  "snapshot.count": ["GET /file-system-snapshots"],
  "snapshot.create": ["POST /file-system-snapshots"],
  "snapshot.list": ["GET /file-system-snapshots"],
  "space.forecast": ["GET /arrays/space"],
  "space.show": ["GET /arrays/space", "GET /file-systems"],
  "space.trash": ["GET /audits", "GET /buckets", "GET /file-system-snapshots", "GET /file-systems"],
  "target.create": ["POST /targets"],
  "target.delete": ["DELETE /targets"],
  "target.list": ["GET /targets"],
  "target.update": ["PATCH /targets"],
  "usage.groups": ["GET /file-systems", "GET /quotas/groups", "GET /usage/groups"],
  "usage.users": ["GET /file-systems", "GET /quotas/users", "GET /usage/users"],
  "virtual-host.add": ["POST /object-store-virtual-hosts"],
  "virtual-host.list": ["GET /object-store-virtual-hosts"],
  "virtual-host.remove": ["DELETE /object-store-virtual-hosts"],
};

/** The resources with each hand-written command's declared sends attached (a declaration in the command wins). */
export function withDeclaredSends(resources: readonly ResourceDefinition[]): ResourceDefinition[] {
  return resources.map((r) => ({
    ...r,
    commands: r.commands.map((c) => {
      const declared = HAND_WRITTEN_SENDS[commandId(r.name, c.verb)];
      return c.endpoints !== undefined || declared === undefined ? c : { ...c, endpoints: declared };
    }),
  }));
}
