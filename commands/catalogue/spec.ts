/**
 * The shape of the resource catalogue: each resource of the REST interface described as data (its words, its
 * path, how one object is selected, what a list and a show display, which fields are writable and in what
 * unit, who may run each verb and how a change is gated). The verbs themselves come from the endpoint table:
 * a resource has `create` because the table has POST on its path, and from the version the table says.
 */
import type { ValueType } from "../../src/core/arg-types.js";
import type { Area, DestructiveClass } from "../../src/core/define-command.js";
import type { Role } from "../../src/core/roles.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";

/** How a value is read from people and shown to them. */
export type Unit =
  | "size" // bytes: "500G" in, "500 GiB" out
  | "ms" // a duration in milliseconds: "30m" in, "30m" out
  | "s" // a duration in seconds
  | "timestamp" // ms since the epoch, shown as a date
  | "expiry" // a timestamp that warns when it is under 30 days away
  | "days-left" // a timestamp shown as whole days from now, marked under 30 and under 90
  | "status" // healthy vs not, marked in tables
  | "percent"; // a ratio 0..1

/** A query parameter filled from a bare word (`snmp manager show trap1` → names=trap1). */
export interface Selector {
  param: string;
  /** The argument's name in usage lines: <name>, <file-system>, <user>. */
  label: string;
  optional?: boolean;
  /** The item's field to filter on where an endpoint lacks `param` (GET /quotas/users has no user_names). */
  field?: string;
}

/** A filter offered on `list`: `--user alice` → `user='alice'`; `--since 24h` → `time>=now-24h`. */
export interface ListFilter {
  option: string;
  field: string;
  /** eq/like/since build the filter; `param-since` sets the query parameter `field` to now minus the value. */
  kind: "eq" | "like" | "since" | "param-since";
  help: string;
}

/**
 * What a resource's endpoints mean:
 * - collection: GET list/show, POST create, PATCH update, DELETE delete;
 * - singleton: settings with exactly one item: GET show, PATCH set (before → after);
 * - relation: membership between two objects: GET list, POST add, DELETE remove;
 * - view: read-only: GET list (and show where objects have names).
 */
export type NounKind = "collection" | "singleton" | "relation" | "view";

export type VerbName =
  | "list"
  | "show"
  | "create"
  | "update"
  | "delete"
  | "set"
  | "add"
  | "remove"
  | (string & {});

/** A verb on another path than the resource's own: `test`, `download`, `upload`, `check`. */
export interface ExtraVerb {
  verb: string;
  method: HttpMethod;
  path: string;
  summary: string;
  role?: Role;
  cls?: DestructiveClass | null;
  /** Which positional selectors it takes (default: the resource's, optional). */
  select?: readonly Selector[];
  /** Writable fields of the body, for a PATCH/POST (default: none). */
  fields?: readonly string[];
  /** The result is offered as a file. */
  file?: string;
}

export interface NounSpec {
  /** The words people type: "snmp manager". */
  noun: string;
  /** "policies", "remote credentials" (default: noun + s). */
  plural?: string;
  aliases?: readonly string[];
  area: Area;
  summary: string;
  path: string;
  kind?: NounKind;
  /** Columns of `list` (dotted paths into the item: "remote.name"). */
  columns: readonly string[];
  /** Column headings where the field name reads poorly ("Sent/s"). */
  labels?: Readonly<Record<string, string>>;
  /** The order `list` asks for when no --sort is given ("time-": newest first). */
  defaultSort?: string;
  /** Fields of `show`; default: every field of the item. */
  show?: readonly string[];
  /** How objects are selected by bare words, for show/update/delete (default: names → <name>). */
  select?: readonly Selector[];
  /** Selectors for create/add when they differ (replica links: local and remote names). */
  createSelect?: readonly Selector[];
  /** Writable fields for create and update/set (default: every scalar field of the body model). */
  writable?: readonly string[];
  /** Writable only on create. */
  createOnly?: readonly string[];
  /**
   * Secret fields create and update offer as flags, their values asked in a private dialog (default: every text
   * field of the body model whose name says secret; [] where the body model is also the answer's and the array
   * takes none, e.g. an access key's secret).
   */
  secrets?: readonly string[];
  /**
   * Secrets the array needs once another field takes a value (an SNMP v2c manager's community): create, or an
   * update setting that value, asks for them in the private dialog without their flag.
   */
  secretWhen?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  units?: Readonly<Record<string, Unit>>;
  /**
   * Fields whose emptying stops a service of the array (every name server, the NTP servers, the SMTP relay), with
   * what stops working: such a change is its own class, `remove_last_server`, and its card says it.
   */
  lastServer?: Readonly<Record<string, string>>;
  /** What kind of value a writable field holds where its name alone does not say (a subnet's prefix). */
  values?: Readonly<Record<string, ValueType>>;
  /** Minimum role per verb; defaults: reads viewer, changes operator, identity/security/network admin. */
  roles?: Readonly<Partial<Record<VerbName, Role>>>;
  /** Destructive class per mutating verb; defaults in generic/policy.ts. */
  classes?: Readonly<Partial<Record<VerbName, DestructiveClass | null>>>;
  extra?: readonly ExtraVerb[];
  filters?: readonly ListFilter[];
  /** Example words after `<noun> <verb>` that work against the demo array. */
  examples?: Readonly<Partial<Record<VerbName, string>>>;
  /** `list` also attaches the items as this file (logs). */
  file?: string;
  /**
   * How a change can cut the bot off: the object's `address` is the bot's host, its `prefix` holds it, or the
   * bot reaches the array by a host name (DNS). Checked against the host the bot uses for that array.
   */
  reach?: "address" | "prefix" | "hostname";
  /** Said in the impact of any change: how this change can cut the bot off from the array. */
  cutsOff?: string;
}
