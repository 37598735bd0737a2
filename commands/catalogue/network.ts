/** Catalogue: Network — subnets, interfaces, link aggregation groups, DNS, SMTP relay. */
import type { NounSpec } from "./spec.js";

const CUTS_OFF =
  "If the bot reaches this array through this object, the change can cut it off: check the address in the bot's configuration first.";

export const NETWORK: readonly NounSpec[] = [
  {
    noun: "subnet",
    aliases: ["subnets"],
    area: "Network",
    summary: "Subnets: prefix, gateway, VLAN, MTU",
    path: "/subnets",
    columns: ["name", "prefix", "gateway", "vlan", "mtu", "enabled", "interfaces"],
    writable: ["gateway", "mtu", "prefix", "vlan", "enabled", "link_aggregation_group"],
    values: { prefix: "cidr" },
    reach: "prefix",
    examples: {
      list: "",
      show: "data",
      create: "backup-net --prefix 10.21.150.0/24 --gateway 10.21.150.1 --vlan 150 --mtu 9000",
      update: "legacy-backup --mtu 1500",
      delete: "legacy-backup",
    },
  },
  {
    noun: "interface",
    aliases: ["interfaces", "network-interface"],
    area: "Network",
    summary: "Network interfaces (VIPs): address, services",
    path: "/network-interfaces",
    columns: ["name", "address", "subnet.name", "services", "type", "enabled"],
    writable: ["address", "services"],
    values: { address: "ip" },
    createOnly: ["type"],
    reach: "address",
    examples: {
      list: "",
      show: "data1",
      create: "data3 --address 10.21.100.12 --services data --type vip",
      update: "data2 --address 10.21.100.13",
      delete: "data2",
    },
  },
  {
    noun: "lag",
    aliases: ["link-aggregation-group"],
    area: "Network",
    summary: "Link aggregation groups: ports and speed",
    path: "/link-aggregation-groups",
    columns: ["name", "ports", "port_speed", "lag_speed", "status"],
    units: { status: "status" },
    // Ports are added and removed by name (LinkAggregationGroupPatch); `ports` replaces them all.
    writable: ["add_ports", "remove_ports"],
    // The array builds a group from the ports it is given and refuses one without any.
    createOnly: ["ports"],
    cutsOff: CUTS_OFF,
    examples: {
      list: "",
      show: "uplink",
      create: "backup-lag --ports CH1.FM1.ETH3,CH1.FM2.ETH3",
      update: "uplink --add-ports CH1.FM1.ETH2",
      delete: "legacy-lag",
    },
  },
  {
    noun: "dns",
    area: "Network",
    kind: "singleton",
    summary: "DNS domain, name servers and search list",
    path: "/dns",
    columns: ["domain", "nameservers", "search"],
    values: { domain: "host", search: "host" },
    lastServer: {
      nameservers:
        "the array resolves no host names: directory (LDAP/AD) logins, NTP and SMTP by name, and replication to arrays named by host stop working",
    },
    reach: "hostname",
    // REST 2.16+ keeps more than one DNS configuration (by name, each for the services it lists): an admin adds
    // and removes one; the array refuses removing the last.
    rest2Methods: ["POST", "DELETE"],
    classes: { create: "array_settings" },
    select: [{ param: "names", label: "name", optional: true }],
    createSelect: [{ param: "names", label: "name" }],
    summaries: {
      create: "Add a DNS configuration for some services (REST 2.16+)",
      delete: "Remove a DNS configuration (not the last; REST 2.16+); gated",
    },
    examples: {
      show: "",
      set: "--nameservers 10.21.0.53,10.21.2.53",
      create: "dns-repl --domain repl.example.com --nameservers 10.21.4.54",
      delete: "dns-data",
    },
  },
  {
    noun: "smtp",
    area: "Network",
    kind: "singleton",
    summary: "The SMTP relay alert e-mails go through",
    path: "/smtp",
    columns: ["relay_host", "sender_domain"],
    lastServer: { relay_host: "the array sends no e-mail: alert watchers get no alert e-mails" },
    examples: { show: "", set: "--relay-host smtp2.example.com" },
  },
];
