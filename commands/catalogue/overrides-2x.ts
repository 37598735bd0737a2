/**
 * What a person chose for the generated 2.x nouns (catalogue-2x.data.ts), by path: words where the path's read
 * poorly, roles above the area's, and destructive classes where a change cannot be taken back. Approval-class
 * (`eradicate`, an admin approves) marks what removes protection for good or opens the array to being wiped:
 * releasing a legal hold, deleting a WORM data policy, minting a factory-reset token.
 */
import { NFS_EXPORT_RULE_CHECKS } from "../fs/export-rule-check.js";
import { TRUST_POLICY_DOCUMENT } from "../object-store/trust-policy-document.js";
import type { NounSpec } from "./spec.js";

export type Override2x = Partial<
  Pick<
    NounSpec,
    | "noun"
    | "area"
    | "roles"
    | "classes"
    | "examples"
    | "summary"
    | "summaries"
    | "queryOptions"
    | "renamable"
    | "referenceLists"
    | "extra"
  >
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
  // Issue 42f: a fleet's members, a node group's nodes, the diagnostics tools' version.
  "/fleets/members": {
    title: "fleet member",
    columns: ["fleet.name", "member.name", "member.is_local", "status"],
    labels: { "fleet.name": "Fleet", "member.name": "Array", "member.is_local": "Local" },
  },
  "/node-groups/nodes": {
    title: "node group member",
    columns: ["group.name", "member.name"],
    labels: { "group.name": "Node group", "member.name": "Node" },
  },
  "/support-diagnostics/settings": {
    title: "diagnostics tools",
    columns: ["version", "last_updated"],
  },
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
/**
 * Issue 42e: a held path is put under a hold (POST) and released (PATCH released=true) with query options, not
 * body fields: `--paths`, `--recursive`, `--released`. The demo's hold `hold-audit-2026` holds
 * `finance:/ledgers/2025`.
 */
const HELD_PATHS: Readonly<Record<string, Override2x>> = {
  "/legal-holds/held-entities": {
    summary: "Paths a legal hold holds: put a path under a hold, release it (each approved by an admin)",
    classes: { create: "eradicate", delete: "eradicate", update: "eradicate" },
    summaries: {
      create: "Put a path of a file system under a legal hold (--paths; --recursive for what is below it)",
      update: "Release a held path from a legal hold (--paths, --released): it may then be deleted",
    },
    queryOptions: {
      create: [
        { param: "paths", help: "the paths of the file system to hold" },
        { param: "recursive", help: "hold everything below the paths too" },
      ],
      update: [
        { param: "paths", help: "the held paths to release" },
        { param: "recursive", help: "release everything below the paths too" },
        { param: "released", help: "release the paths (the array keeps them held without it)" },
      ],
    },
    examples: {
      create: "hold-audit-2026 finance --paths /ledgers/2026 --recursive",
      update: "hold-audit-2026 finance --paths /ledgers/2025 --released",
    },
  },
};

/**
 * Issue 42e: an account's access policy rules, on the demo's `analytics/etl-read` (one rule, `read`); the
 * array's action-restriction check is a query option of their changes.
 */
const ACCESS_RULES: Readonly<Record<string, Override2x>> = {
  "/object-store-access-policies/rules": {
    queryOptions: {
      create: [
        { param: "enforce_action_restrictions", help: "refuse actions the rule's conditions would ignore" },
      ],
      update: [
        { param: "enforce_action_restrictions", help: "refuse actions the rule's conditions would ignore" },
      ],
    },
    examples: {
      show: "read",
      create:
        "write analytics/etl-read --actions s3:PutObject --resources 'etl/*' --enforce-action-restrictions",
      update: "read analytics/etl-read --effect deny",
      delete: "read analytics/etl-read",
    },
  },
};

/** Issue 42e: a workload preset is renamed by PATCH (its body's only field is `name`). */
const PRESET_RENAME: Readonly<Record<string, Override2x>> = {
  "/presets/workload": {
    renamable: true,
    summaries: { update: "Rename a workload preset (--new-name)" },
    examples: { update: "workload-demo --new-name workload-gold" },
  },
};

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
  // Fleets and node groups (issue 42f): renamed by PATCH `{name}`; a fleet is created on an array in none (the
  // demo's fb-dr-01), and a node leaves a node group by name (the demo's ng-a holds nodes-demo).
  "/fleets": {
    renamable: true,
    examples: {
      show: "fleet-prod",
      create: "fleet-dr --array fb-dr-01",
      update: "fleet-prod --new-name fleet-production",
      delete: "fleet-prod",
    },
  },
  "/node-groups": {
    renamable: true,
    examples: { show: "ng-a", update: "ng-a --new-name ng-analytics", delete: "ng-a" },
  },
  "/node-groups/nodes": { examples: { create: "ng-a nodes-old", delete: "ng-a nodes-demo" } },
  // The console demo's fb-edge-01 is a member of fleet-prod reached only through it (src/local/demo.ts).
  "/fleets/members": { examples: { delete: "fb-edge-01" } },
  // The key lets another array join (the access policy keeps minting it for admins, as reading it).
  "/fleets/fleet-key": { roles: { list: "admin", show: "admin", create: "admin" } },
  ...HELD_PATHS,
  ...ACCESS_RULES,
  ...PRESET_RENAME,
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

// ── Issue 42h: first-class families in help, and their forms ─────────────────────────────────────────────────

/**
 * The families issue 42 makes first-class, by path: the help overview names them in a short
 * "REST 2.x only" line (`/array help 2x` lists every 2.x-only noun). Their sub-nouns (rules, held entities,
 * members) are found from the family's help.
 */
export const FIRST_CLASS_2X: readonly string[] = [
  "/nfs-export-policies",
  "/smb-share-policies",
  "/smb-client-policies",
  "/file-system-exports",
  "/network-access-policies",
  "/qos-policies",
  "/worm-data-policies",
  "/legal-holds",
  "/maintenance-windows",
  "/sessions",
  "/support-diagnostics",
  "/realms",
  "/fleets",
  "/node-groups",
];

/** What a first-class family's forms read like, and the values its text fields take (the 2.x SDK's words). */
export type Form2x = Partial<Pick<NounSpec, "form" | "choices">>;

/** A rule's policy is picked from its own family's policies (not the snapshot policies `policy` means in 1.x). */
const RULE_POLICY = (path: string) => ({ lookups: { policy: { path, field: "name" } } });
const LOCATION = { location: "Where it is defined: an array's name (empty: this array)" };

/**
 * The forms of the first-class families (issue 42): fields in the order a person fills them, labels and hints
 * in words with units as the options read, menus of the family's own policies. A noun's layout serves all of
 * its changes; the titles name the common ones (they are also the workflow steps' words), in Slack's 24
 * characters of a modal title.
 */
export const FORMS_2X: Readonly<Record<string, Form2x>> = {
  "/nfs-export-policies": {
    form: {
      titles: { create: "Create NFS export policy", update: "Change NFS export policy" },
      hints: { ...LOCATION, enabled: "Its rules apply only while it is enabled" },
    },
  },
  "/nfs-export-policies/rules": {
    choices: {
      permission: ["rw", "ro"],
      access: ["root-squash", "all-squash", "no-squash"],
      required_transport_security: ["none", "tls", "mutual-tls"],
    },
    form: {
      titles: { create: "Add an NFS export rule", update: "Change NFS export rule" },
      order: ["name", "policy", "client", "permission", "access", "anonuid", "anongid", "security", "index"],
      ...RULE_POLICY("/nfs-export-policies"),
      labels: {
        policy: "NFS export policy",
        name: "Rule",
        client: "Clients",
        permission: "Permission",
        access: "Squash",
        anonuid: "Anonymous UID",
        anongid: "Anonymous GID",
        security: "Security flavours",
        index: "Position",
        secure: "Only privileged ports",
        atime: "Update access times",
        fileid32bit: "32-bit file IDs",
        requiredTransportSecurity: "Transport security",
      },
      hints: {
        client:
          "Who may mount: an IP address, a CIDR (10.30.0.0/16), a host name, a netgroup or * (everyone)",
        permission: "rw lets them write; ro (the default) only read",
        access: "root-squash (the default) maps root to the anonymous user, all-squash maps everyone",
        anonuid: "The user squashed clients act as: a number, 65534 by default",
        anongid: "The group squashed clients act as: a number, 65534 by default",
        security: "Comma-separated: sys, krb5, krb5i, krb5p",
        index: "Where the rule goes: 1 is first; empty puts it last",
        secure: "Refuse clients that mount from ports above 1023",
        atime: "Update a file's access time when it is read",
        fileid32bit: "For old 32-bit clients",
        requiredTransportSecurity: "tls or mutual-tls refuse clients without TLS",
      },
    },
  },
  "/smb-share-policies": {
    form: { titles: { create: "Create SMB share policy" }, hints: LOCATION },
  },
  "/smb-share-policies/rules": {
    choices: { read: ["allow", "deny"], change: ["allow", "deny"], full_control: ["allow", "deny"] },
    form: {
      titles: { create: "Add an SMB share rule", update: "Change SMB share rule" },
      order: ["name", "policy", "principal", "read", "change", "fullControl"],
      ...RULE_POLICY("/smb-share-policies"),
      labels: {
        policy: "SMB share policy",
        name: "Rule",
        principal: "User or group",
        read: "Read",
        change: "Change",
        fullControl: "Full control",
      },
      hints: {
        principal: "A user or group name, or a SID; Everyone for all",
        read: "allow or deny reading files",
        change: "allow or deny writing and deleting (allow includes read)",
        fullControl: "allow or deny changing permissions too (allow includes change)",
      },
    },
  },
  "/smb-client-policies": {
    form: {
      titles: { create: "Create SMB client policy" },
      labels: { accessBasedEnumerationEnabled: "Access-based enumeration" },
      hints: {
        ...LOCATION,
        accessBasedEnumerationEnabled: "Hide what a user may not read from their listings",
      },
    },
  },
  "/smb-client-policies/rules": {
    choices: { permission: ["rw", "ro"], encryption: ["required", "optional", "disabled"] },
    form: {
      titles: { create: "Add an SMB client rule", update: "Change SMB client rule" },
      order: ["name", "policy", "client", "permission", "encryption", "index"],
      ...RULE_POLICY("/smb-client-policies"),
      labels: { policy: "SMB client policy", name: "Rule", client: "Clients", index: "Position" },
      hints: {
        client: "Who may connect: an IP address, a CIDR (10.0.0.0/8), a host name or * (everyone)",
        permission: "rw lets them write; ro (the default) only read",
        encryption: "required refuses clients without SMB encryption; optional is the default",
        index: "Where the rule goes: 1 is first; empty puts it last",
      },
    },
  },
  "/network-access-policies": {
    form: { titles: { update: "Change network policy" }, hints: LOCATION },
  },
  "/network-access-policies/rules": {
    choices: { effect: ["allow", "deny"] },
    form: {
      titles: { create: "Add network access rule", update: "Change network rule" },
      order: ["name", "policy", "client", "effect", "interfaces", "index"],
      ...RULE_POLICY("/network-access-policies"),
      labels: { policy: "Network access policy", name: "Rule", client: "Clients", index: "Position" },
      hints: {
        client: "Who it applies to: an IP address, a CIDR (10.0.0.0/8) or * (everyone)",
        effect: "allow or deny them the interfaces below",
        interfaces: "Comma-separated: management-ssh, management-rest-api, management-web-ui, snmp",
        index: "Where the rule goes: 1 is first; empty puts it last",
      },
    },
  },
  "/file-system-exports": {
    form: {
      titles: { add: "Export a file system", update: "Change an export" },
      order: ["name", "member", "policy", "exportName", "sharePolicy", "server"],
      labels: {
        name: "Export",
        member: "File system",
        policy: "Export policy",
        exportName: "Export name",
        sharePolicy: "SMB share policy",
        server: "Server",
      },
      lookups: {
        policy: null,
        member: { path: "/file-systems", field: "name" },
        sharePolicy: { path: "/smb-share-policies", field: "name" },
        server: { path: "/servers", field: "name" },
      },
      hints: {
        policy: "An NFS export policy or an SMB client policy, by name",
        exportName: "The name clients mount it by (the file system's when empty)",
      },
    },
  },
  "/qos-policies": {
    form: {
      titles: { create: "Create a QoS policy", update: "Set a QoS limit" },
      order: ["name", "maxTotalBytesPerSec", "maxTotalOpsPerSec", "enabled"],
      labels: { maxTotalBytesPerSec: "Bandwidth limit", maxTotalOpsPerSec: "Operations limit" },
      hints: {
        ...LOCATION,
        maxTotalBytesPerSec: "Per second, for all clients together: 1G, 500M (1M to 512G); empty: no limit",
        maxTotalOpsPerSec: "Operations per second, all clients together: 20000 (100 to 100000000)",
        enabled: "Its limits apply only while it is enabled",
      },
    },
  },
  "/qos-policies/members": {
    form: {
      titles: {
        add: "Apply a QoS policy",
        remove: "Remove from QoS policy",
      },
      labels: { policy: "QoS policy", member: "File system or bucket" },
      lookups: { policy: { path: "/qos-policies", field: "name" } },
      hints: { member: "The file system's or bucket's name" },
    },
  },
  "/worm-data-policies": {
    choices: { mode: ["compliance"], retention_lock: ["unlocked", "locked"] },
    form: {
      titles: { create: "Create WORM data policy", update: "Change WORM data policy" },
      order: ["name", "mode", "minRetention", "defaultRetention", "maxRetention", "retentionLock", "enabled"],
      labels: {
        minRetention: "Minimum retention",
        defaultRetention: "Default retention",
        maxRetention: "Maximum retention",
        retentionLock: "Retention lock",
      },
      hints: {
        ...LOCATION,
        mode: "compliance: nobody can delete a retained file before its retention ends",
        minRetention: "The shortest a file may be kept: 1d, 30d, 365d",
        defaultRetention: "What a file gets when none is asked: 365d",
        maxRetention: "The longest a file may be kept: 4015d (11 years)",
        retentionLock: "locked: retention can only grow from now on (unlocking needs Pure support)",
      },
    },
  },
  "/legal-holds": {
    form: {
      titles: { create: "Create a legal hold" },
      hints: { description: "Why data is held (a case, an audit), for whoever releases it later" },
    },
  },
  "/legal-holds/held-entities": {
    form: {
      titles: { create: "Put on legal hold" },
      labels: { name: "Legal hold", fileSystem: "File system" },
      lookups: {
        name: { path: "/legal-holds", field: "name" },
        fileSystem: { path: "/file-systems", field: "name" },
      },
      hints: { name: "The hold that keeps it; an admin approves" },
    },
  },
  "/maintenance-windows": {
    form: {
      titles: { create: "Start maintenance window" },
      labels: { timeout: "Length" },
      hints: {
        name: "What the work is (fw-upgrade)",
        timeout: "How long alerts stay quiet: 1h, 90m, 2d",
      },
    },
  },
  "/realms": {
    form: {
      titles: { create: "Create a realm" },
      labels: { defaultInboundTlsPolicy: "Default inbound TLS policy", destroyed: "Destroy" },
      lookups: { defaultInboundTlsPolicy: { path: "/tls-policies", field: "name" } },
      hints: { destroyed: "Destroys the realm (it can be recovered until it is eradicated)" },
    },
  },
  "/fleets": { form: { titles: { create: "Create a fleet" } } },
  "/node-groups": { form: { titles: { create: "Create a node group" } } },
  "/node-groups/nodes": {
    form: {
      labels: { nodeGroup: "Node group" },
      lookups: {
        nodeGroup: { path: "/node-groups", field: "name" },
        node: { path: "/nodes", field: "name" },
      },
    },
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
  "/qos-policies/buckets": "qos-archive logs-archive",
  "/worm-data-policies/members": "worm-7y finance",
  "/file-systems/worm-data-policies": "worm-7y finance",
  "/network-access-policies/members": "default fb-lab-01",
  "/fleets/members": "fleet-prod fb-lab-01",
  "/node-groups/nodes": "ng-a nodes-demo",
  "/node-groups/uses": "ng-archive",
  "/object-store-access-policies/rules": "read analytics/etl-read",
};

// ── Issue 42j: the last 2.28 operations no help example reached ──────────────────────────────────────────────

/**
 * Words for the last operations help did not reach, read after OVERRIDES_2X (a key here replaces the same key
 * there). Held paths and the preset's rename are OVERRIDES_2X's (HELD_PATHS, PRESET_RENAME). A realm's default object store servers are a list of `{server: {name}}`, typed `--servers a,b`; the
 * demo's generic `/servers` holds `servers-demo`.
 */
export const OVERRIDES_2X_LAST: Readonly<Record<string, Override2x>> = {
  // Uploading a trust policy replaces every rule of it (who may assume the role): the rules the document lacks go,
  // so it is confirmed as a deletion is.
  "/object-store-roles/object-store-trust-policies": {
    extra: [
      {
        verb: "upload",
        method: "PATCH",
        path: "/object-store-roles/object-store-trust-policies/upload",
        summary: "Replace a role's trust policy with an IAM document (one rule per statement)",
        cls: "delete",
        document: {
          option: "document",
          field: "policy_document",
          help: 'an IAM trust policy, quoted: \'{"Statement": [{"Effect": "Allow", "Principal": {"Federated": "…"}, "Action": "sts:AssumeRoleWithWebIdentity"}]}\'',
          schema: TRUST_POLICY_DOCUMENT,
        },
      },
    ],
    examples: {
      show: "object-store-trust-policies-demo",
      upload:
        'object-store-trust-policies-demo --document \'{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Federated": "oidc-demo"}, "Action": "sts:AssumeRoleWithWebIdentity"}]}\'',
    },
  },
  "/realms/defaults": {
    referenceLists: { object_store: { wrap: "server", option: "servers" } },
    examples: { show: "finance-realm", update: "finance-realm --servers servers-demo" },
  },
};
