/**
 * What every simulated array has regardless of scenario: hardware, blades, network, settings singletons,
 * admins, roles, certificates and a small user/group directory. Served by the generic collections.
 */
import type { SimState } from "../state.js";

type Item = Record<string, unknown>;

const TB = 1000 ** 4;
const DAY = 86_400_000;

export function put(state: SimState, path: string, items: Item[], singleton = false): void {
  const c = state.generic.get(path) ?? { singleton, items: new Map<string, Item>() };
  for (const item of items) c.items.set(String(item["name"]), item);
  state.generic.set(path, c);
}

function ref(state: SimState, path: string, name: string, resourceType: string) {
  const id = state.generic.get(path)?.items.get(name)?.["id"] ?? null;
  return { name, id, resource_type: resourceType };
}

export interface InfrastructureOptions {
  blades: number;
  /** Names of components to report as unhealthy (demo). */
  unhealthy?: readonly string[];
}

function hardware(state: SimState, opts: InfrastructureOptions): void {
  const bad = new Set(opts.unhealthy ?? []);
  const serial = () =>
    `PCHFL${Math.floor(state.rng() * 1e8)
      .toString()
      .padStart(8, "0")}`;
  const hw = (name: string, type: string, index: number, slot: number, extra: Item = {}): Item => ({
    name,
    id: state.newId(),
    details: bad.has(name) ? "Software process is not healthy: Code 2" : null,
    identify_enabled: false,
    index,
    model: type === "fb" ? "FB-17TB" : type === "ch" ? "CH-FB" : null,
    serial: type === "fan" || type === "eth" ? null : serial(),
    slot,
    speed: null,
    status: bad.has(name) ? "unhealthy" : "healthy",
    temperature: type === "fb" || type === "fm" ? 30 + Math.floor(state.rng() * 12) : null,
    type,
    ...extra,
  });
  const items: Item[] = [hw("CH1", "ch", 1, 1)];
  for (let i = 1; i <= opts.blades; i++) items.push(hw(`CH1.FB${i}`, "fb", i, i));
  for (let m = 1; m <= 2; m++) {
    items.push(hw(`CH1.FM${m}`, "fm", m, m));
    for (let e = 1; e <= 4; e++) items.push(hw(`CH1.FM${m}.ETH${e}`, "eth", e, e, { speed: 40_000_000_000 }));
  }
  for (let f = 1; f <= 6; f++) items.push(hw(`CH1.FAN${f}`, "fan", f, f));
  for (let p = 1; p <= 4; p++) items.push(hw(`CH1.PWR${p}`, "pwr", p, p));
  put(state, "/hardware", items);
  put(
    state,
    "/blades",
    Array.from({ length: opts.blades }, (_, k) => {
      const name = `CH1.FB${k + 1}`;
      return {
        name,
        id: state.newId(),
        details: bad.has(name) ? "Software process is not healthy: Code 2" : null,
        raw_capacity: 17 * TB,
        target: null,
        progress: null,
        status: bad.has(name) ? "unhealthy" : "healthy",
      };
    }),
  );
  put(
    state,
    "/hardware-connectors",
    [1, 2].flatMap((m) =>
      [1, 2, 3, 4].map((e) => ({
        name: `CH1.FM${m}.ETH${e}`,
        id: state.newId(),
        connector_type: "QSFP",
        lane_speed: 10_000_000_000,
        port_count: 4,
        transceiver_type: "40GBASE-SR4",
      })),
    ),
  );
}

function network(state: SimState): void {
  put(state, "/link-aggregation-groups", [
    {
      name: "uplink",
      id: state.newId(),
      lag_speed: 160_000_000_000,
      mac_address: "24:a9:37:00:1a:2b",
      ports: [1, 2].map((m) => ({ name: `CH1.FM${m}.ETH1`, id: null, resource_type: "hardware" })),
      port_speed: 40_000_000_000,
      status: "healthy",
    },
  ]);
  const subnets = [
    { name: "data", prefix: "10.21.100.0/24", gateway: "10.21.100.1", vlan: 0, services: ["data"] },
    {
      name: "replication",
      prefix: "10.21.200.0/24",
      gateway: "10.21.200.1",
      vlan: 200,
      services: ["replication"],
    },
  ];
  put(
    state,
    "/subnets",
    subnets.map((s) => ({
      ...s,
      id: state.newId(),
      enabled: true,
      mtu: 9000,
      interfaces: [],
      link_aggregation_group: ref(state, "/link-aggregation-groups", "uplink", "link-aggregation-groups"),
    })),
  );
  const vips = [
    { name: "data1", address: "10.21.100.10", subnet: "data", services: ["data"] },
    { name: "data2", address: "10.21.100.11", subnet: "data", services: ["data"] },
    { name: "repl1", address: "10.21.200.10", subnet: "replication", services: ["replication"] },
  ];
  put(
    state,
    "/network-interfaces",
    vips.map((v) => {
      const subnet = subnets.find((s) => s.name === v.subnet);
      return {
        name: v.name,
        id: state.newId(),
        address: v.address,
        enabled: true,
        gateway: subnet?.gateway,
        mtu: 9000,
        netmask: "255.255.255.0",
        services: v.services,
        type: "vip",
        vlan: subnet?.vlan,
        subnet: ref(state, "/subnets", v.subnet, "subnets"),
      };
    }),
  );
  for (const s of state.generic.get("/subnets")?.items.values() ?? []) {
    s["interfaces"] = vips
      .filter((v) => v.subnet === s["name"])
      .map((v) => ref(state, "/network-interfaces", v.name, "network-interfaces"));
  }
}

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
    "/arrays/supported-time-zones",
    ["UTC", "America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Tokyo"].map(
      (tz) => ({ name: tz }),
    ),
  );
  put(
    state,
    "/directory-services",
    ["management", "nfs", "smb"].map((svc) => ({
      name: svc,
      id: state.newId(),
      base_dn: "dc=example,dc=com",
      bind_password: null,
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
  put(state, "/certificate-groups", [{ name: "_default_replication_certs", id: state.newId() }]);
}

function directory(state: SimState): void {
  state.users.directory.push(
    ...[
      ["alice", 1001],
      ["bob", 1002],
      ["carol", 1003],
      ["dave", 1004],
      ["erin", 1005],
      ["frank", 1006],
      ["svc-build", 2001],
      ["svc-backup", 2002],
    ].map(([name, id]) => ({ name: name as string, id: id as number })),
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
  hardware(state, opts);
  network(state);
  settings(state);
  access(state);
  directory(state);
}
