/** Demo alerts (open ones of each severity and a closed one), alert watchers, clients and a little history. */

import type { SimState } from "../state.js";
import { raiseAlert } from "../state-control.js";
import { put } from "./put.js";
import { DAY, HOUR } from "./units.js";

function alerts(state: SimState, now: number): void {
  raiseAlert(state, {
    code: 1004,
    severity: "warning",
    component: "CH1.FM2.ETH1",
    subject: "Ethernet connector CH1.FM2.ETH1 is unhealthy",
    description: "An Ethernet connector's status is unhealthy. Performance or availability may be impacted.",
    variables: { EthernetConnector: "CH1.FM2.ETH1" },
    state: "closed",
    flagged: true,
    created: now - 12 * DAY,
  });
  const blade = raiseAlert(state, {
    code: 1000,
    severity: "critical",
    component: "CH1.FB5",
    subject: "Blade CH1.FB5 is unhealthy",
    description:
      "A blade is unhealthy. No data has been lost, but performance may be impacted and additional wear may be occurring.",
    action:
      "This alert should automatically generate a support case. Please review your support case status in Pure1.",
    variables: { Blade: "CH1.FB5", details: "Software process is not healthy: Code 2" },
    created: now - 7 * HOUR,
  });
  blade.updated = now - 2 * HOUR;
  raiseAlert(state, {
    code: 1111,
    severity: "critical",
    component: "logs-archive --> fb-dr-01:logs-archive",
    subject: "A bucket replica link requires attention",
    description:
      "The bucket replica link from bucket logs-archive to bucket logs-archive on fb-dr-01 is unhealthy. The detailed error is: The specified bucket does not exist.",
    variables: {
      local_bucket_name: "logs-archive",
      remote_name: "fb-dr-01",
      remote_bucket_name: "logs-archive",
    },
    created: now - 5 * HOUR,
  });
  raiseAlert(state, {
    code: 1112,
    severity: "warning",
    component: "fb-lab-02",
    subject: "An array connection to fb-lab-02 requires attention",
    description: "The array connection to fb-lab-02 is not fully connected; replication address: 10.41.0.51.",
    variables: { remote_name: "fb-lab-02" },
    created: now - 2 * HOUR,
  });
  raiseAlert(state, {
    code: 1101,
    severity: "info",
    component: "builds",
    subject: "File system 'builds' approaching space quota",
    description: "The 'builds' file system is at 97% of its space quota of 10.00 T.",
    variables: { FileSystemName: "builds", CurrentUtilization: "0.97" },
    created: now - 30 * HOUR,
  });
  raiseAlert(state, {
    code: 1106,
    severity: "warning",
    component: "users of home",
    subject: "One user has reached or exceeded 100% of their quota on file system home",
    description:
      "One user has reached or exceeded 100% of their allotted write size limitation on file system home.",
    variables: { "File System Name": "home", "Number Of Users Above 100% Usage": "1" },
    created: now - 20 * HOUR,
  });
}

function watchers(state: SimState): void {
  const add = (name: string, min: "info" | "warning" | "critical", enabled = true) =>
    state.alertWatchers.set(name, { id: state.newId(), name, enabled, minimum_notification_severity: min });
  add("storage-team@example.com", "warning");
  add("oncall@example.com", "critical");
  add("noc@example.com", "info", false);
}

function clients(state: SimState): void {
  const hosts = [
    "10.21.40.11",
    "10.21.40.12",
    "10.21.40.23",
    "10.21.41.5",
    "10.21.41.6",
    "10.21.52.100",
    "10.21.52.101",
    "10.21.60.8",
  ];
  state.clients = hosts.map((h, i) => ({
    name: `${h}:${i % 3 === 0 ? 2049 : 700 + i * 7}`,
    // NFS is the sum of its clients (resources/protocol-samples): these make it about half the array's load.
    weight: 0.1 + ((i * 37) % 10) / 10,
  }));
}

function history(state: SimState, now: number): void {
  const entry = (ageHours: number, command: string, subcommand: string, args: string, user: string) =>
    state.audits.push({
      id: state.newId(),
      name: String(state.audits.length + 1),
      arguments: args,
      command,
      subcommand,
      ip_address: "10.21.9.14",
      time: now - ageHours * HOUR,
      user,
      user_agent: "Purity_FB_Python_Client/1.12",
      user_interface: "REST",
    });
  entry(72, "file-systems", "update", 'name=scratch {"provisioned":5497558138880}', "pureuser");
  entry(30, "quotas/users", "create", "file_system_names=home user_names=dave", "pureuser");
  entry(3, "file-systems", "update", 'name=old-share {"destroyed":true}', "ops-bot");
  put(state, "/syslog-servers", [
    { name: "central-syslog", id: state.newId(), uri: "udp://syslog.example.com:514" },
  ]);
  put(state, "/snmp-managers", [
    {
      name: "nms",
      id: state.newId(),
      host: "nms.example.com",
      notification: "trap",
      version: "v2c",
      v2c: { community: "****" },
      v3: null,
    },
  ]);
}

export function seedDemoAlerts(state: SimState): void {
  const now = state.clock();
  alerts(state, now);
  watchers(state);
  clients(state);
  history(state, now);
}
