/** Catalogue: Identity and security — admins, roles, directory services, Active Directory, keytabs, API clients, certificates. */
import type { NounSpec } from "./spec.js";

const GROUP_CERT = [
  { param: "certificate_group_names", label: "group" },
  { param: "certificate_names", label: "certificate" },
];

/*
 * Real PEM text, as a person pastes it into a slash command (one line, spaces where the newlines were; the
 * options put the lines back): an RSA public key (the array takes RSA for API clients) and two self-signed CA
 * certificates (EC P-256, valid to 2046) whose private keys were thrown away when they were made.
 */
const EXAMPLE_RSA_KEY =
  "-----BEGIN PUBLIC KEY----- MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3zjRgrJNfAhvN0yQl8vn giNWoBdyiKieCmHEvrVqfl153KKLHr1/MoYjMhz7h8s9NQaDYNCOViKe58wmSeEQ VQA+rjFL8mXArPdewDQpN7Ke6Ga3In8+xmSqxPr+6Yqo+CBDCPQ+MvWunGmtIA47 mz2UYh1xA7kLvLDTv2ZpG7i2UukWyFh2r6FC648h/mwFdae4GtirSK7x06FQheV8 8UgLXVywd8vQrK/atccD6j3evrZbX1PYXF3jfIZYgxbV//OJqmwzQ7G4YBP0nMOg Fwb4Z2khnPdBLVgCKK/3YjXgsik6m+cTVBiUMXL+XXrNopO87Gj2vsfvOPGxSMfN iQIDAQAB -----END PUBLIC KEY-----";
const EXAMPLE_CA =
  "-----BEGIN CERTIFICATE----- MIIBoTCCAUegAwIBAgIUdqeEpUyLs9SKi3hMAuHRF8nNcBcwCgYIKoZIzj0EAwIw JjESMBAGA1UEAwwJc3lzbG9nLWNhMRAwDgYDVQQKDAdFeGFtcGxlMB4XDTI2MTEy NTE0MDIyOFoXDTQ2MTEyMDE0MDIyOFowJjESMBAGA1UEAwwJc3lzbG9nLWNhMRAw DgYDVQQKDAdFeGFtcGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEKZvJTify p9wsyJfEtWlUVopxA9vnv3WoU38YZEMDiLv0cdISJXwgxcTX+j9xveWpImw83f1t oYcyYODERZp7mqNTMFEwHQYDVR0OBBYEFPzm/zaOkGGj1Lk2ykhsMAslefEeMB8G A1UdIwQYMBaAFPzm/zaOkGGj1Lk2ykhsMAslefEeMA8GA1UdEwEB/wQFMAMBAf8w CgYIKoZIzj0EAwIDSAAwRQIgIV8voPUnHsgAxieUDRYh8On00tx96ZegS7Tx4FFt ZFgCIQD0sCMgs70p9MqoIlMhAwDsdJd1tSIly4jMRPcIPLq5pQ== -----END CERTIFICATE-----";
const EXAMPLE_INTERMEDIATE =
  "-----BEGIN CERTIFICATE----- MIIBvjCCAWOgAwIBAgIUDfmuDRyq6irM8CQFonKFQvJXSLUwCgYIKoZIzj0EAwIw NDEgMB4GA1UEAwwXRXhhbXBsZSBJbnRlcm1lZGlhdGUgQ0ExEDAOBgNVBAoMB0V4 YW1wbGUwHhcNMjYxMTI1MTQwMjI4WhcNNDYxMTIwMTQwMjI4WjA0MSAwHgYDVQQD DBdFeGFtcGxlIEludGVybWVkaWF0ZSBDQTEQMA4GA1UECgwHRXhhbXBsZTBZMBMG ByqGSM49AgEGCCqGSM49AwEHA0IABGZHqyYD+4X6BRbtB25tj6lpcemJzBv6jFD7 Bar3FNRpw33Kx7geh7j1ZAf5TtXYEBkNkLa34gubuZq+Ssq757ijUzBRMB0GA1Ud DgQWBBSvnQ0gJLDZLm1aL6PogBZ7tqAEdjAfBgNVHSMEGDAWgBSvnQ0gJLDZLm1a L6PogBZ7tqAEdjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQCl 8T95vjz5TtFMMvg9zrCWpxl8/q30Llcoviy6PycWpgIhAIAGeBXRlLOqZ91U0EMt QwVPAeVMgs9Zw37UE2+5vF+L -----END CERTIFICATE-----";

export const IDENTITY: readonly NounSpec[] = [
  {
    noun: "admin",
    aliases: ["admins"],
    area: "Identity and security",
    summary: "Array administrators and their API token settings",
    path: "/admins",
    columns: ["name", "is_local", "api_token.created", "api_token.expires"],
    show: ["name", "id", "is_local", "public_key", "api_token.created", "api_token.expires"],
    units: { "api_token.created": "timestamp", "api_token.expires": "expiry", api_token_timeout: "ms" },
    writable: ["api_token_timeout", "public_key"],
    // REST 2.15+ adds and removes local admins: a new one's role is named, its password asked privately. Both are
    // settings changes an admin approves; the array refuses removing the built-in pureuser.
    rest2Methods: ["POST", "DELETE"],
    createOnly: ["role"],
    classes: { create: "array_settings" },
    summaries: {
      create: "Add a local administrator with a role (the password is asked in a private dialog; REST 2.15+)",
      delete: "Remove a local administrator (not the built-in pureuser; REST 2.15+); gated",
    },
    examples: {
      list: "",
      show: "pureuser",
      update: "pureuser --public-key 'ssh-ed25519 AAAAC3Nz example'",
      create: "jlee --role readonly --password",
      delete: "contractor",
    },
  },
  {
    noun: "admin cache",
    area: "Identity and security",
    kind: "collection",
    summary: "Cached directory-service logins and their roles",
    path: "/admins/cache",
    columns: ["name", "role", "time"],
    units: { time: "timestamp" },
    classes: { delete: null },
    examples: { list: "", show: "jdoe", delete: "mlee" },
  },
  {
    noun: "role",
    aliases: ["roles"],
    area: "Identity and security",
    kind: "view",
    summary: "Array roles and their permissions",
    path: "/roles",
    columns: ["name", "permissions"],
    examples: { list: "" },
  },
  {
    noun: "directory",
    aliases: ["directory-service", "ldap"],
    area: "Identity and security",
    summary: "Directory services (LDAP) for management, NFS and SMB",
    path: "/directory-services",
    columns: ["name", "enabled", "uris", "base_dn", "bind_user", "services"],
    writable: ["enabled", "uris", "base_dn", "bind_user", "services"],
    examples: {
      list: "",
      show: "management",
      update: "smb --uris ldaps://ldap2.example.com",
      test: "management",
      check: "management --uris ldaps://ldap3.example.com",
    },
    extra: [
      {
        verb: "test",
        method: "GET",
        path: "/directory-services/test",
        summary: "Test the saved directory service configuration",
        role: "admin",
      },
      {
        verb: "check",
        method: "PATCH",
        path: "/directory-services/test",
        summary: "Test a configuration before saving it",
        role: "admin",
        fields: ["uris", "base_dn", "bind_user"],
      },
    ],
  },
  {
    noun: "directory role",
    area: "Identity and security",
    summary: "Which directory groups map to which array roles",
    path: "/directory-services/roles",
    columns: ["name", "group", "group_base"],
    writable: ["group", "group_base"],
    // REST 2.14+ maps more groups than the fixed roles: a mapping is added with its role and removed, by an admin.
    rest2Methods: ["POST", "DELETE"],
    createOnly: ["role"],
    classes: { create: "array_settings" },
    examples: {
      list: "",
      show: "array_admin",
      update: "array_admin --group storage-admins",
      create: "auditors --group fb-auditors --group-base ou=groups,dc=example,dc=com --role readonly",
      delete: "ops_admin",
    },
  },
  {
    noun: "ad",
    aliases: ["active-directory"],
    area: "Identity and security",
    summary: "Active Directory computer accounts (joining asks for the password in a private dialog)",
    path: "/active-directory",
    columns: ["name", "domain", "computer_name", "directory_servers"],
    writable: ["directory_servers", "encryption_types", "join_ou", "kerberos_servers"],
    createOnly: ["domain", "computer_name", "user"],
    examples: {
      list: "",
      show: "ad1",
      // fb-lab-01 is joined already (an array joins one domain): the example joins its DR partner too.
      create: "ad1 --domain example.com --computer-name FBDR01 --user joiner --array fb-dr-01",
      update: "ad1 --join-ou OU=Storage",
      delete: "ad1",
      check: "ad1 --ca-certificate-group ldap-cas",
    },
    extra: [
      {
        verb: "test",
        method: "GET",
        path: "/active-directory/test",
        summary: "Test the Active Directory account",
        role: "admin",
      },
      // REST 2.27 tests the account against a CA certificate before the array trusts it for LDAPS.
      {
        verb: "check",
        method: "PATCH",
        path: "/active-directory/test",
        summary: "Test the Active Directory account with a CA certificate (REST 2.27+)",
        role: "admin",
        cls: "array_settings",
        fields: ["ca_certificate", "ca_certificate_group"],
      },
    ],
  },
  {
    noun: "keytab",
    aliases: ["keytabs"],
    area: "Identity and security",
    summary:
      "Kerberos keytabs (an uploaded keytab file is asked in a private dialog: its keys stay out of chat)",
    path: "/keytabs",
    columns: ["name", "principal", "realm", "encryption_type", "kvno"],
    select: [{ param: "names", label: "name" }],
    createSelect: [{ param: "name_prefixes", label: "prefix" }],
    examples: { list: "", show: "nfs.1", create: "nfs --source ad1", delete: "nfs.1", upload: "nfs-upload" },
    extra: [
      {
        verb: "download",
        method: "GET",
        path: "/keytabs/download",
        // The array answers the keytab file itself; it holds the service's keys, a secret that must not travel
        // through chat (see upload below): the bot names the file and its size, and attaches nothing.
        summary: "Name and size of the keytab file the array hands out (the keys stay off chat)",
        select: [{ param: "keytab_names", label: "name" }],
        role: "admin",
      },
      {
        verb: "upload",
        method: "POST",
        path: "/keytabs/upload",
        // The file holds the service's keys: it is asked as base64 in the private dialog (never typed in chat),
        // lives in memory for the one run and is sent as multipart `keytab_file`; cards and audit name it only.
        summary: "Upload a keytab file (base64, asked in a private dialog): one keytab per key it holds",
        select: [{ param: "name_prefixes", label: "prefix" }],
        secretFile: "keytab_file",
        role: "admin",
        cls: "array_settings",
      },
    ],
  },
  {
    noun: "api-client",
    aliases: ["api-clients"],
    area: "Identity and security",
    summary: "API clients (OAuth 2.0) allowed to call the array",
    path: "/api-clients",
    columns: ["name", "enabled", "issuer", "max_role.name", "access_token_ttl_in_ms"],
    units: { access_token_ttl_in_ms: "ms" },
    examples: {
      list: "",
      show: "grafana",
      create: `prometheus --issuer prometheus --max-role readonly --access-token-ttl-in-ms 1h --public-key '${EXAMPLE_RSA_KEY}'`,
      update: "grafana --no-enabled",
      delete: "grafana",
    },
  },
  {
    noun: "certificate",
    aliases: ["certificates", "cert"],
    area: "Identity and security",
    summary: "TLS certificates and when they expire",
    path: "/certificates",
    columns: ["name", "certificate_type", "common_name", "issued_by", "status", "valid_to", "valid_to:days"],
    labels: { "valid_to:days": "Days left" },
    show: [
      "name",
      "certificate_type",
      "common_name",
      "issued_by",
      "issued_to",
      "key_size",
      "status",
      "valid_from",
      "valid_to",
      "valid_to:days",
    ],
    units: { valid_from: "timestamp", valid_to: "expiry", "valid_to:days": "days-left" },
    writable: ["certificate", "intermediate_certificate"],
    createOnly: ["certificate_type"],
    examples: {
      list: "",
      show: "management",
      create: `syslog-ca --certificate-type external --certificate '${EXAMPLE_CA}'`,
      update: `ldap-ca --intermediate-certificate '${EXAMPLE_INTERMEDIATE}'`,
      delete: "ldap-ca",
    },
    extra: [
      { verb: "uses", method: "GET", path: "/certificates/uses", summary: "Where each certificate is used" },
    ],
  },
  {
    noun: "certificate group",
    aliases: ["cert group"],
    area: "Identity and security",
    summary: "Certificate groups (trusted CAs for replication, directory services)",
    path: "/certificate-groups",
    columns: ["name"],
    examples: { list: "", show: "_default_replication_certs", create: "syslog-cas", delete: "ldap-cas" },
    extra: [
      { verb: "uses", method: "GET", path: "/certificate-groups/uses", summary: "Where each group is used" },
    ],
  },
  {
    noun: "certificate group member",
    area: "Identity and security",
    kind: "relation",
    summary: "Certificates in a certificate group",
    path: "/certificate-groups/certificates",
    columns: ["group.name", "member.name"],
    select: GROUP_CERT,
    examples: {
      list: "",
      add: "_default_replication_certs management",
      remove: "_default_replication_certs fb-dr-01-ca",
    },
  },
  {
    noun: "certificate membership",
    area: "Identity and security",
    kind: "relation",
    summary: "Certificate groups a certificate belongs to",
    path: "/certificates/certificate-groups",
    columns: ["member.name", "group.name"],
    select: [GROUP_CERT[1] as (typeof GROUP_CERT)[number], GROUP_CERT[0] as (typeof GROUP_CERT)[number]],
    examples: {
      list: "",
      add: "management ldap-cas",
      remove: "ldap-ca ldap-cas",
    },
  },
];
