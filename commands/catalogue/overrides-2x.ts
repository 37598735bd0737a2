/**
 * What a person chose for the generated 2.x nouns (catalogue-2x.data.ts), by path: words where the path's read
 * poorly, roles above the area's, and destructive classes where a change cannot be taken back. Approval-class
 * (`eradicate`, an admin approves) marks what removes protection for good or opens the array to being wiped:
 * releasing a legal hold, deleting a WORM data policy, minting a factory-reset token.
 */
import { NFS_EXPORT_RULE_CHECKS } from "../fs/export-rule-check.js";
import type { NounSpec } from "./spec.js";

export type Override2x = Partial<
  Pick<NounSpec, "noun" | "area" | "roles" | "classes" | "examples" | "summary">
>;

/** How a first-class family reads: its list's columns and headings, its title, and the checks before a change. */
export type View2x = Partial<Pick<NounSpec, "columns" | "labels" | "title" | "precheck">>;

const POLICY = { "policy.name": "Policy" } as const;

/**
 * The families issue 42 makes first-class, read the way an on-call engineer asks about them: who a rule lets in,
 * what a QoS policy limits, how long WORM keeps data, which paths a hold keeps, when a window ends. Field names
 * are the 2.28 models'.
 */
export const VIEWS_2X: Readonly<Record<string, View2x>> = {
  "/nfs-export-policies": { title: "NFS export policy", columns: ["name", "enabled", "version"] },
  "/nfs-export-policies/rules": {
    title: "NFS export rule",
    columns: ["policy.name", "index", "name", "client", "permission", "access"],
    labels: POLICY,
    // A rule change shows the clients it lets in and shuts out before it is sent (commands/fs/export-rule-check.ts).
    precheck: NFS_EXPORT_RULE_CHECKS,
  },
  "/file-system-exports": {
    title: "file system export",
    columns: ["name", "member.name", "policy_type", "policy.name", "share_policy.name", "enabled"],
    labels: { "member.name": "File system", ...POLICY, "share_policy.name": "Share policy" },
  },
  "/smb-share-policies": { title: "SMB share policy", columns: ["name", "enabled"] },
  "/smb-share-policies/rules": {
    title: "SMB share rule",
    columns: ["policy.name", "name", "principal", "read", "change", "full_control"],
    labels: POLICY,
  },
  "/smb-client-policies": { title: "SMB client policy", columns: ["name", "enabled"] },
  "/smb-client-policies/rules": {
    title: "SMB client rule",
    columns: ["policy.name", "index", "name", "client", "permission", "encryption"],
    labels: POLICY,
  },
  "/network-access-policies": { title: "network access policy", columns: ["name", "enabled"] },
  "/network-access-policies/rules": {
    title: "network access rule",
    columns: ["policy.name", "index", "name", "client", "effect", "interfaces"],
    labels: POLICY,
  },
  "/qos-policies": {
    title: "QoS policy",
    columns: ["name", "enabled", "max_total_bytes_per_sec", "max_total_ops_per_sec"],
    labels: { max_total_bytes_per_sec: "Bandwidth limit (/s)", max_total_ops_per_sec: "Ops limit (/s)" },
  },
  "/qos-policies/members": {
    title: "QoS policy member",
    columns: ["policy.name", "member.name", "member.resource_type"],
    labels: { ...POLICY, "member.name": "Member", "member.resource_type": "Kind" },
  },
  "/worm-data-policies": {
    title: "WORM data policy",
    columns: [
      "name",
      "enabled",
      "mode",
      "retention_lock",
      "min_retention",
      "default_retention",
      "max_retention",
    ],
  },
  "/legal-holds": { title: "legal hold", columns: ["name", "description"] },
  "/legal-holds/held-entities": {
    title: "held path",
    columns: ["legal_hold.name", "file_system.name", "path", "status"],
    labels: { "legal_hold.name": "Legal hold", "file_system.name": "File system" },
  },
  "/maintenance-windows": { title: "maintenance window", columns: ["name", "created", "expires"] },
  "/realms": { title: "realm", columns: ["name", "destroyed", "created", "time_remaining"] },
  "/fleets": { title: "fleet", columns: ["name", "is_local"] },
};

/**
 * A generated noun's first word where the family is already a noun under a shorter name (its 1.x noun's alias):
 * `file-system lock` reads `fs lock`, beside `fs policy`, so `file-system` keeps meaning the one noun.
 */
export const FAMILY_WORDS: Readonly<Record<string, string>> = {
  "file-system": "fs",
  "network-interface": "interface",
  "hardware-connector": "connector",
  "directory-service": "directory",
};

/**
 * The ten families made first-class (issue 42) name the demo's shared seed (src/simulator/scenarios/
 * demo-families.ts, with their resources): `default` and `lab-clients` NFS export policies, `qos-gold` and
 * `qos-bronze`, `worm-7y`, `hold-audit-2026`, `fw-upgrade`, `finance-realm`, `fleet-prod`, `ng-a`.
 */
export const OVERRIDES_2X: Readonly<Record<string, Override2x>> = {
  // "directory local user" and "directory local group" differ in one word only, which did-you-mean cannot tell.
  "/directory-services/local/users": { noun: "directory local-user" },
  "/directory-services/local/users/members": { noun: "directory local-user member" },
  "/directory-services/local/groups": { noun: "directory local-group" },
  "/directory-services/local/groups/members": { noun: "directory local-group member" },
  "/directory-services/local/directory-services": { noun: "directory local-service" },
  "/nfs-export-policies": {
    examples: { show: "lab-clients", update: "lab-clients --enabled=false", delete: "retired-clients" },
  },
  // Rules are named `<policy>.<n>` by the array; lab-clients has two, so one can go and a policy keeps a rule.
  "/nfs-export-policies/rules": {
    examples: {
      show: "lab-clients.1",
      create: "lab-clients --client 10.30.0.0/16 --permission ro",
      update: "lab-clients.2 --permission rw",
      delete: "lab-clients.2",
    },
  },
  "/file-system-exports": {
    examples: {
      show: "home",
      create: "default builds",
      update: "home --export-name home2",
      delete: "projects",
    },
  },
  "/smb-share-policies": {
    examples: { show: "smb-default", update: "smb-default --enabled=false", delete: "smb-retired" },
  },
  "/smb-share-policies/rules": {
    examples: {
      show: "smb-default.1 smb-default",
      create: "smb-default --principal Admins",
      update: "smb-default.1 smb-default --change allow",
      delete: "smb-default.1 smb-default",
    },
  },
  "/smb-client-policies/rules": {
    examples: {
      show: "smb-clients.1",
      create: "smb-clients --client 10.0.0.0/8",
      update: "smb-clients.1 --client 10.0.0.0/8",
      delete: "smb-clients.1",
    },
  },
  "/network-access-policies/rules": {
    examples: {
      show: "default.1",
      create: "default --client 10.0.0.0/8",
      update: "default.1 --client 10.0.0.0/8",
      delete: "default.1",
    },
  },
  "/smb-client-policies": {
    examples: {
      show: "smb-clients",
      update: "smb-clients --access-based-enumeration-enabled",
      delete: "smb-clients-retired",
    },
  },
  "/network-access-policies": { examples: { show: "default", update: "default --enabled=false" } },
  "/qos-policies": {
    examples: { show: "qos-bronze", update: "qos-gold --max-total-ops-per-sec 20000", delete: "qos-gold" },
  },
  "/qos-policies/members": { examples: { create: "qos-gold builds", delete: "qos-bronze scratch" } },
  // A window's length (`timeout`) is required: an hour.
  "/maintenance-windows": {
    examples: { show: "fw-upgrade", create: "mw-patch --timeout 1h", delete: "fw-upgrade" },
  },
  "/realms": {
    examples: { show: "finance-realm", update: "finance-realm --destroyed", delete: "realm-retired" },
  },
  "/fleets": { examples: { show: "fleet-prod", delete: "fleet-prod" } },
  "/node-groups": { examples: { show: "ng-a", delete: "ng-a" } },
  "/legal-holds/held-entities": {
    summary: "Paths a legal hold holds: put a path under a hold, release it (each approved by an admin)",
    classes: { create: "eradicate", delete: "eradicate", update: "eradicate" },
  },
  // The demo's policies are enabled already, so the update examples disable one; a locked WORM policy's
  // maximum retention may still grow (to 11 years).
  "/worm-data-policies": {
    summary: "WORM data policies: retention that refuses deletion until it ends",
    classes: { delete: "eradicate" },
    examples: { show: "worm-7y", update: "worm-7y --max-retention 4015d", delete: "worm-trial" },
  },
  "/legal-holds": {
    examples: {
      show: "hold-audit-2026",
      update: "hold-audit-2026 --description ledger-audit",
      delete: "hold-2024-closed",
    },
  },
  "/arrays/factory-reset-token": {
    area: "Identity and security",
    summary: "The token that allows a factory reset of the array (creating it is approved by an admin)",
    roles: { create: "admin", delete: "admin", list: "admin" },
    classes: { create: "eradicate", delete: "array_settings" },
  },
};

/**
 * Show examples where the array names the objects itself, so the generator's `<segment>-demo` names nothing: the
 * bot's own login is the demo array's first session (`session-1`, src/simulator/resources/session-log.ts), the
 * demo's completed diagnostics run is `1` and its tests `1.1`…, a realm's space and defaults are read by the realm's
 * name, held paths by their hold's, and memberships by the demo's own (src/simulator/scenarios/demo-families.ts:
 * `scratch` in `qos-bronze`, `finance` in `worm-7y`; fb-lab-01, the default array, in `default` and `fleet-prod`). Kept apart from OVERRIDES_2X, whose examples win where both name a path.
 */
export const DEMO_SHOWS_2X: Readonly<Record<string, string>> = {
  "/sessions": "session-1",
  "/support-diagnostics": "1",
  "/support-diagnostics/details": "1.1",
  "/realms/space": "finance-realm",
  "/realms/space/storage-classes": "finance-realm",
  "/realms/defaults": "finance-realm",
  "/legal-holds/held-entities": "hold-audit-2026",
  "/qos-policies/members": "qos-bronze scratch",
  "/qos-policies/file-systems": "qos-bronze scratch",
  "/worm-data-policies/members": "worm-7y finance",
  "/file-systems/worm-data-policies": "worm-7y finance",
  "/network-access-policies/members": "default fb-lab-01",
  "/fleets/members": "fleet-prod fb-lab-01",
};
