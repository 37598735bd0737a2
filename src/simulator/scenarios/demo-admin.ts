/**
 * The demo array's directory, certificate, network and object-store access details that `/array help` examples
 * name: the Active Directory account the SMB shares need and its keytabs, a Grafana API client, the LDAP CA in
 * its own group and the DR array's CA in the replication group, a virtual host, the access policies the demo's
 * object users work with, an object store account with nothing in it yet, remote credentials rotated out, a
 * connection key outstanding, and a retired backup subnet and link aggregation group nothing uses any more.
 * Each exists so an example copied from help finds what it names (test/commands/examples-demo.test.ts).
 *
 * Ids come from an id source of their own (derived from the seed), not from the state's: drawing from the
 * shared generator here would shift every id and metric seeded after the demo (the growth and slow-nfs
 * scenarios build on it) and change answers that tests and golden files pin.
 */
import { createIdSource, createRng } from "../models/random.js";
import type { SimState } from "../state.js";
import { ports, put } from "./put.js";
import { DAY } from "./units.js";

const PEM = (what: string) =>
  `-----BEGIN CERTIFICATE-----\nMIIB (simulated ${what})\n-----END CERTIFICATE-----`;

function directory(state: SimState, newId: () => string): void {
  const host = `${state.array.name}.example.com`;
  const principals = [`nfs/${host}`, `cifs/${host}`];
  put(state, "/active-directory", [
    {
      name: "ad1",
      id: newId(),
      computer_name: state.array.name.toUpperCase().slice(0, 15),
      directory_servers: [],
      domain: "example.com",
      encryption_types: ["aes256-cts-hmac-sha1-96"],
      join_ou: "CN=Computers",
      kerberos_servers: [],
      service_principal_names: principals,
    },
  ]);
  put(
    state,
    "/keytabs",
    principals.map((spn, i) => ({
      name: `nfs.${i + 1}`,
      id: newId(),
      encryption_type: "aes256-cts-hmac-sha1-96",
      fqdn: host,
      kvno: 2,
      prefix: "nfs",
      principal: `${spn}@EXAMPLE.COM`,
      realm: "EXAMPLE.COM",
      suffix: i + 1,
    })),
  );
  put(state, "/api-clients", [
    {
      name: "grafana",
      id: newId(),
      max_role: { name: "readonly" },
      issuer: "grafana",
      public_key: "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA (simulated)\n-----END PUBLIC KEY-----",
      key_id: "6f1c0de4a2b94d7e8c35a1f0b2e7d9c4",
      enabled: true,
      access_token_ttl_in_ms: DAY,
    },
  ]);
}

function certificates(state: SimState, newId: () => string): void {
  const now = state.clock();
  const ca = (name: string, issuer: string) => ({
    name,
    id: newId(),
    certificate: PEM(name),
    certificate_type: "external",
    common_name: issuer,
    country: "US",
    email: null,
    intermediate_certificate: null,
    issued_by: issuer,
    issued_to: issuer,
    key_size: 4096,
    locality: null,
    organization: "Example Corp",
    organizational_unit: "IT Security",
    state: null,
    status: "imported",
    valid_from: String(now - 700 * DAY),
    valid_to: String(now + 1100 * DAY),
  });
  put(state, "/certificates", [
    ca("ldap-ca", "Example Corp LDAP CA"),
    ca("fb-dr-01-ca", "fb-dr-01.example.com"),
  ]);
  const groups = state.generic.get("/certificate-groups")?.items;
  const replication = groups?.get("_default_replication_certs");
  if (replication) replication["members"] = ["fb-dr-01-ca"];
  put(state, "/certificate-groups", [{ name: "ldap-cas", id: newId(), members: ["ldap-ca"] }]);
}

function objectStore(state: SimState, newId: () => string): void {
  // Opened for an archive project whose buckets were never made.
  state.accounts.set("archive", { id: newId(), name: "archive", created: state.clock() - 40 * DAY });
  const dr = [...state.arrayConnections.values()].find((c) => c.remote.name === "fb-dr-01");
  if (dr) {
    put(state, "/object-store-remote-credentials", [
      {
        // Rotated out last year and never deleted: no replica link uses it.
        name: "fb-dr-01/old-creds",
        id: newId(),
        created: state.clock() - 420 * DAY,
        access_key_id: "PSFBQHXWNDKTLZEVRAPMOCGJYSUFBIQNXTWDLKHEZRVA",
        secret_access_key: null,
        remote: { name: dr.remote.name, id: dr.remote.id, resource_type: "array-connections" },
      },
    ]);
  }
  put(state, "/object-store-virtual-hosts", [{ name: "s3.example.com", id: newId() }]);
  const grant = (policy: string, user: string) => state.accessPolicies.get(policy)?.members.add(user);
  grant("pure:policy/full-access", "analytics/etl");
  grant("pure:policy/full-access", "backup/veeam");
  grant("pure:policy/object-read", "analytics/reader");
}

/** A backup network retired last year: its VLAN's subnet and its own ports' group are still configured. */
function retiredNetwork(state: SimState, newId: () => string): void {
  state.network.lags.set("legacy-lag", {
    name: "legacy-lag",
    id: newId(),
    mac_address: "24:a9:37:00:1a:3c",
    ports: ports(state, "CH1.FM1.ETH4", "CH1.FM2.ETH4"),
    port_speed: 40_000_000_000,
    status: "healthy",
  });
  state.network.subnets.set("legacy-backup", {
    name: "legacy-backup",
    id: newId(),
    prefix: "10.21.140.0/24",
    gateway: "10.21.140.1",
    vlan: 140,
    enabled: true,
    mtu: 9000,
    lag: "uplink",
  });
}

/** Someone is connecting another array to this one: the key it hands over is outstanding for the next hour. */
function connectionKey(state: SimState, newId: () => string): void {
  const created = state.clock() - 10 * 60_000;
  const key = { connection_key: newId(), created, expires: created + 60 * 60_000 };
  state.generic.set("/array-connections/connection-key", { singleton: true, items: new Map([["key", key]]) });
}

export function seedDemoAdmin(state: SimState): void {
  const newId = createIdSource(createRng(state.seed ^ 0x5eed_ad31));
  connectionKey(state, newId);
  directory(state, newId);
  certificates(state, newId);
  objectStore(state, newId);
  retiredNetwork(state, newId);
}
