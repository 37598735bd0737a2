/** The array itself, its clients and its audit trail. */
import { type FieldGate, gateFields } from "./versioned.js";

export interface ArrayRec {
  id: string;
  name: string;
  ntp_servers: string[];
  os: string;
  version: string;
  revision: string;
  time_zone: string;
  banner: string;
  /** ms; 0 disables. */
  idle_timeout: number;
  /** Usable bytes. */
  capacity: number;
  parity: number;
}

const ARRAY_GATES: readonly FieldGate[] = [
  ["_as_of", "1.7"],
  ["time_zone", "1.5"],
  ["banner", "1.10"],
  ["idle_timeout", "1.12"],
];

export function renderArray(a: ArrayRec, version: string, now: number): Record<string, unknown> {
  return gateFields(
    {
      name: a.name,
      id: a.id,
      ntp_servers: [...a.ntp_servers],
      os: a.os,
      version: a.version,
      revision: a.revision,
      time_zone: a.time_zone,
      banner: a.banner,
      idle_timeout: a.idle_timeout,
      _as_of: now,
    },
    version,
    ARRAY_GATES,
  );
}

/** An NFS/SMB/S3 client the array has seen, named `<address>:<port>`. */
export interface ClientRec {
  name: string;
  /** Relative load, so some clients are busier than others. */
  weight: number;
}

export interface AuditRec {
  id: string;
  name: string;
  arguments: string;
  command: string;
  subcommand: string;
  ip_address: string;
  time: number;
  user: string;
  user_agent: string;
  user_interface: "REST" | "CLI" | "GUI";
}
