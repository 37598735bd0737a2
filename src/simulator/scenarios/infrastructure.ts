/**
 * What every simulated array has regardless of scenario: hardware, blades, network, settings singletons,
 * admins, roles, certificates and a small user/group directory. Served by the generic collections.
 */

import { seedDirectoryRoles } from "../resources/directory-services.js";
import type { SimState } from "../state.js";
import { type InfrastructureOptions, seedHardware, seedNetwork } from "./hardware.js";
import { put } from "./put.js";
import { DAY } from "./units.js";

export type { InfrastructureOptions };

function settings(state: SimState): void {
  const name = state.array.name;
  const now = state.clock();
  put(
    state,
    "/dns",
    [
      {
        name,
        id: state.newId(),
        domain: "example.com",
        nameservers: ["10.21.0.53", "10.21.1.53"],
        search: ["example.com"],
      },
    ],
    true,
  );
  put(
    state,
    "/smtp",
    [{ name, id: state.newId(), relay_host: "smtp.example.com", sender_domain: "example.com" }],
    true,
  );
  put(
    state,
    "/support",
    [
      {
        name,
        id: state.newId(),
        created: now - 400 * DAY,
        phonehome_enabled: true,
        proxy: "",
        remote_assist_active: false,
        remote_assist_opened: "",
        remote_assist_expires: "",
        remote_assist_status: "disconnected",
        remote_assist_paths: [
          { component_name: "CH1.FM1", status: "disconnected" },
          { component_name: "CH1.FM2", status: "disconnected" },
        ],
      },
    ],
    true,
  );
  put(
    state,
    "/snmp-agents",
    [
      {
        name: "localhost",
        id: state.newId(),
        engine_id: "80000f4c0300a1b2c3d4",
        version: "v2c",
        v2c: { community: "****" },
        v3: null,
      },
    ],
    true,
  );
  put(
    state,
    "/snmp-agents/mib",
    [{ name: "PURESTORAGE-MIB", mib: "PURESTORAGE-MIB DEFINITIONS ::= BEGIN\n-- simulated\nEND\n" }],
    true,
  );
  put(
    state,
    "/quotas/settings",
    [{ name, id: state.newId(), contact: "storage-team@example.com", direct_notifications_enabled: true }],
    true,
  );
  put(
    state,
    "/syslog-servers/settings",
    [{ name, id: state.newId(), ca_certificate: null, ca_certificate_group: null }],
    true,
  );
  put(
    state,
    "/arrays/eula",
    [
      {
        name,
        agreement: "Pure Storage End User Agreement (simulated).",
        signature: {
          name: "Storage Admin",
          title: "Administrator",
          company: "Example Corp",
          accepted: now - 400 * DAY,
        },
      },
    ],
    true,
  );
  put(
    state,
    "/directory-services",
    ["management", "nfs", "smb"].map((svc) => ({
      name: svc,
      id: state.newId(),
      base_dn: "dc=example,dc=com",
      bind_password: "bind-secret-do-not-show",
      bind_user: "cn=fb,ou=svc,dc=example,dc=com",
      enabled: svc !== "smb",
      services: [svc],
      uris: ["ldaps://ldap.example.com"],
      ca_certificate: null,
      ca_certificate_group: null,
    })),
  );
}

function access(state: SimState): void {
  const now = state.clock();
  put(state, "/admins", [
    { name: "pureuser", id: state.newId(), api_token: null, public_key: null, is_local: true },
    {
      name: "ops-bot",
      id: state.newId(),
      api_token: { created: now - 30 * DAY, expires: null, token: `T-${state.newId()}` },
      public_key: null,
      is_local: true,
    },
  ]);
  const roles: [string, string[]][] = [
    ["array_admin", ["*"]],
    ["storage_admin", ["file-systems", "file-system-snapshots", "policies", "quotas", "buckets"]],
    ["ops_admin", ["alerts", "alert-watchers", "support"]],
    ["readonly", []],
  ];
  put(
    state,
    "/roles",
    roles.map(([name, resources]) => ({
      name,
      id: state.newId(),
      permissions: resources.map((r) => ({ action: "write", resource_type: r })),
    })),
  );
  put(state, "/certificates", [
    {
      name: "management",
      id: state.newId(),
      certificate: "-----BEGIN CERTIFICATE-----\nMIIB (simulated)\n-----END CERTIFICATE-----",
      certificate_type: "array",
      common_name: `${state.array.name}.example.com`,
      country: "US",
      email: null,
      intermediate_certificate: null,
      issued_by: `${state.array.name}.example.com`,
      issued_to: `${state.array.name}.example.com`,
      key_size: 2048,
      locality: null,
      organization: "Example Corp",
      organizational_unit: "Storage",
      state: null,
      status: "self-signed",
      valid_from: String(now - 300 * DAY),
      valid_to: String(now + 65 * DAY),
    },
  ]);
  put(state, "/certificate-groups", [{ name: "_default_replication_certs", id: state.newId(), members: [] }]);
  seedDirectoryRoles(state, {
    array_admin: "fb-admins",
    storage_admin: "storage-team",
    readonly: "fb-viewers",
  });
  // Roles the array cached when these directory users last logged in.
  put(state, "/admins/cache", [
    { name: "jdoe", id: state.newId(), role: "array_admin", time: now - 2 * 3_600_000 },
    { name: "mlee", id: state.newId(), role: "readonly", time: now - 26 * 3_600_000 },
  ]);
}

function directory(state: SimState): void {
  state.users.directory.push(
    ...(
      [
        ["alice", 1001, 3001],
        ["bob", 1002, 3001],
        ["carol", 1003, 3002],
        ["dave", 1004, 3002],
        ["erin", 1005, 3003],
        ["frank", 1006, 3004],
        ["svc-build", 2001, 3001],
        ["svc-backup", 2002, 3004],
      ] as const
    ).map(([name, id, gid]) => ({ name, id, gid })),
  );
  state.groups.directory.push(
    ...[
      ["engineering", 3001],
      ["research", 3002],
      ["finance", 3003],
      ["ops", 3004],
    ].map(([name, id]) => ({ name: name as string, id: id as number })),
  );
}

export function seedInfrastructure(state: SimState, opts: InfrastructureOptions): void {
  seedHardware(state, opts);
  seedNetwork(state);
  settings(state);
  access(state);
  directory(state);
}
