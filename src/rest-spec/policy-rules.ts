/**
 * The access policy's data: which changes an operator may send, the rules that differ from the default for
 * their method and family, and the query parameters that reveal or destroy. Keyed by canonical operation (the
 * 2.28 path, src/rest-spec/operations.ts) and canonical parameter name, so one row covers both generations: the
 * rule on `expose_api_token` is the rule on 1.x's `expose`. src/rest-spec/policy.ts reads it; an entry that names
 * no operation of the table stops start-up there.
 */
import type { ParamRule, PolicyRule } from "./policy.js";
import { OPERATOR_CHANGES_2X } from "./policy-rules-2x.js";

/**
 * Changes an operator may send: the day-to-day storage, protection, replication and object-store objects.
 * Every other change (network, identity, security, array settings, support) needs admin.
 */
export const OPERATOR_CHANGES: readonly string[] = [
  // The 2.x-only changes of the operator's areas, generated with their catalogue nouns (tools/gen-catalogue-2x.mjs).
  ...OPERATOR_CHANGES_2X,
  "POST /file-systems",
  "PATCH /file-systems",
  "DELETE /file-systems",
  "POST /file-system-snapshots",
  "PATCH /file-system-snapshots",
  "DELETE /file-system-snapshots",
  "DELETE /file-system-snapshots/transfer",
  "POST /file-systems/policies",
  "DELETE /file-systems/policies",
  "POST /policies/file-systems",
  "DELETE /policies/file-systems",
  "DELETE /file-system-snapshots/policies",
  "DELETE /policies/file-system-snapshots",
  "POST /file-system-replica-links/policies",
  "DELETE /file-system-replica-links/policies",
  "POST /policies/file-system-replica-links",
  "DELETE /policies/file-system-replica-links",
  "POST /policies",
  "PATCH /policies",
  "DELETE /policies",
  "POST /file-system-replica-links",
  "POST /bucket-replica-links",
  "PATCH /bucket-replica-links",
  "DELETE /bucket-replica-links",
  "PATCH /array-connections",
  "PATCH /object-store-remote-credentials",
  "POST /buckets",
  "PATCH /buckets",
  "DELETE /buckets",
  "POST /object-store-accounts",
  "DELETE /object-store-accounts",
  "POST /object-store-users",
  "DELETE /object-store-users",
  "POST /object-store-access-keys",
  "PATCH /object-store-access-keys",
  "DELETE /object-store-access-keys",
  "POST /object-store-access-policies/object-store-users",
  "DELETE /object-store-access-policies/object-store-users",
  "POST /object-store-users/object-store-access-policies",
  "DELETE /object-store-users/object-store-access-policies",
  "POST /lifecycle-rules",
  "PATCH /lifecycle-rules",
  "DELETE /lifecycle-rules",
  "POST /quotas/users",
  "PATCH /quotas/users",
  "DELETE /quotas/users",
  "POST /quotas/groups",
  "PATCH /quotas/groups",
  "DELETE /quotas/groups",
  "PATCH /quotas/settings",
  "PATCH /alerts",
  "PATCH /hardware",
];

/** Paths whose changes are the array's own settings (a confirm at least). */
export const SETTINGS_PATHS =
  /^\/(active-directory|admins|alert-watchers|api-clients|arrays|certificates|certificate-groups|directory-services|dns|hardware-connectors|link-aggregation-groups|network-interfaces|smtp|smtp-servers|snmp-agents|snmp-managers|subnets|support|syslog-servers)(\/|$)/;

/** Rules that differ from what the method and path give by default. */
export const OVERRIDES: Readonly<Record<string, PolicyRule>> = {
  "GET /array-connections/connection-key": {
    role: "admin",
    cls: null,
    why: "hands out the key that connects another array to this one",
  },
  "GET /keytabs/download": { role: "admin", cls: null, why: "hands out Kerberos key material" },
  "GET /active-directory/test": {
    role: "admin",
    cls: null,
    why: "runs the directory tests with the array's domain account",
  },
  "GET /directory-services/test": {
    role: "admin",
    cls: null,
    why: "binds to the directory servers with the array's credentials",
  },
  "PATCH /directory-services/test": {
    role: "admin",
    cls: null,
    why: "tests a directory configuration that is not saved",
  },
  "GET /alert-watchers/test": { role: "operator", cls: null, why: "sends test e-mails to the watchers" },
  "GET /snmp-managers/test": { role: "operator", cls: null, why: "sends test traps to the managers" },
  "GET /syslog-servers/test": { role: "operator", cls: null, why: "sends test messages to the servers" },
  "GET /support/test": { role: "operator", cls: null, why: "makes the array call Pure1 support" },
  "DELETE /admins/cache": { role: "admin", cls: null, why: "drops cached administrator logins" },
  "DELETE /file-systems": { role: "admin", cls: "eradicate", why: "eradicates: the data is gone for good" },
  "DELETE /file-system-snapshots": { role: "admin", cls: "eradicate", why: "eradicates the snapshot" },
  "DELETE /buckets": { role: "admin", cls: "eradicate", why: "eradicates the bucket and its objects" },
  "DELETE /array-connections": { role: "admin", cls: "delete_replication", why: "replication stops" },
  "DELETE /targets": { role: "admin", cls: "delete_replication", why: "replication to it stops" },
  "DELETE /bucket-replica-links": { role: "operator", cls: "delete_replication", why: "replication stops" },
  "DELETE /file-system-replica-links": { role: "admin", cls: "delete_replication", why: "replication stops" },
  // 2.x only. Every other change of a 2.x-only operation needs admin (defaultRule); these GETs act or reveal.
  "GET /arrays/factory-reset-token": {
    role: "admin",
    cls: null,
    why: "hands out the token that lets the array be reset to factory settings",
  },
  "GET /fleets/fleet-key": {
    role: "admin",
    cls: null,
    why: "hands out the key that joins an array to the fleet",
  },
  // Issue 42f: minting a fleet key hands out what lets another array join, and joining lets every member act
  // for the array: an admin's, as reading the key is.
  "POST /fleets/fleet-key": {
    role: "admin",
    cls: null,
    why: "makes the key that joins an array to the fleet, and answers with it",
  },
  "POST /fleets/members": {
    role: "admin",
    cls: "array_settings",
    why: "joins the array to a fleet, whose every member may then act for it",
  },
  "GET /realm-connections/connection-key": {
    role: "admin",
    cls: null,
    why: "hands out the key that connects another realm to this one",
  },
  "GET /logs-async/download": { role: "admin", cls: null, why: "downloads the array's logs" },
  // Issue 42j: an uploaded keytab brings a service's Kerberos keys onto the array; an uploaded trust document
  // replaces every rule of who may assume a role (the rules it lacks go). Raw `api` meets the verbs' gates.
  "POST /keytabs/upload": {
    role: "admin",
    cls: "array_settings",
    why: "brings a service's Kerberos keys onto the array",
  },
  "PATCH /object-store-roles/object-store-trust-policies/upload": {
    role: "operator",
    cls: "delete",
    why: "replaces every rule of the role's trust policy",
  },
  "GET /kmip/test": {
    role: "admin",
    cls: null,
    why: "connects to the key servers with the array's credentials",
  },
  "GET /rapid-data-locking/test": {
    role: "admin",
    cls: null,
    why: "connects to the key management servers with the array's credentials",
  },
  "GET /sso/saml2/idps/test": {
    role: "admin",
    cls: null,
    why: "tests the identity provider's configuration",
  },
};

/** Query parameters that reveal or destroy, each with what it needs when its value is true. */
export const PARAM_RULES: readonly ParamRule[] = [
  {
    method: "GET",
    path: "/admins",
    param: "expose_api_token",
    role: "refuse",
    cls: null,
    why: "shows API tokens, the bot's own among them; never from chat",
  },
  {
    method: "GET",
    path: "/admins/api-tokens",
    param: "expose_api_token",
    role: "refuse",
    cls: null,
    why: "shows API tokens, the bot's own among them; never from chat",
  },
  {
    method: "GET",
    path: "/admins/cache",
    param: "refresh",
    role: "admin",
    cls: null,
    why: "makes the array look every cached administrator up again in the directory",
  },
  {
    method: "PATCH",
    path: "/policies",
    param: "destroy_snapshots",
    role: "operator",
    cls: "remove_snapshot_rules",
    why: "destroys the snapshots the removed rules made",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "discard_non_snapshotted_data",
    role: "operator",
    cls: "demote_file_system",
    why: "demoting discards data no replicated snapshot holds",
  },
  {
    method: "POST",
    path: "/file-systems",
    param: "discard_non_snapshotted_data",
    role: "operator",
    cls: "demote_file_system",
    why: "overwriting discards data no replicated snapshot holds",
  },
  {
    method: "POST",
    path: "/file-systems",
    param: "overwrite",
    role: "operator",
    cls: "destroy",
    why: "replaces an existing file system's data with the snapshot's",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "delete_link_on_eradication",
    role: "operator",
    cls: "delete_replication",
    why: "the replica link goes when the file system is eradicated",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "discard_detailed_permissions",
    role: "operator",
    cls: "destroy",
    why: "drops the file system's detailed permissions for good",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "ignore_usage",
    role: "operator",
    cls: "shrink_below_usage",
    why: "accepts a hard limit below what is stored",
  },
];
