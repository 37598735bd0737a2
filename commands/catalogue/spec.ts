/**
 * The shape of the resource catalogue: each resource of the REST interface described as data (its words, its
 * path, how one object is selected, what a list and a show display, which fields are writable and in what
 * unit, who may run each verb and how a change is gated). The verbs themselves come from the endpoint table:
 * a resource has `create` because the table has POST on its path, and from the version the table says.
 */

import type { ZodType } from "zod";
import type { Role } from "../../src/core/access/roles.js";
import type {
  Area,
  CommandContext,
  DestructiveClass,
  FormLayout,
  PlannedRequest,
  StateValue,
} from "../../src/core/catalogue/define-command.js";
import type { Field, Rich } from "../../src/core/presentation/message.js";
import type { ValueType } from "../../src/core/words/arg-types.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";
import type { NameKind } from "../../src/rest-spec/names.js";

/** How a value is read from people and shown to them. */
export type Unit =
  | "size" // bytes: "500G" in, "500 GiB" out
  | "ms" // a duration in milliseconds: "30m" in, "30m" out
  | "s" // a duration in seconds
  | "timestamp" // ms since the epoch, shown as a date
  | "expiry" // a timestamp that warns when it is under 30 days away
  | "days-left" // a timestamp shown as whole days from now, marked under 30 and under 90
  | "status" // healthy vs not, marked in tables
  | "percent" // a ratio 0..1
  | "usec" // a latency in microseconds, shown in ms like every latency ("0.52 ms")
  | "rate" // operations per second, with thousands separators ("7,111")
  | "bitrate"; // a link speed in bits per second ("40 Gb/s")

/** A query parameter filled from a bare word (`snmp manager show trap1` → names=trap1). */
export interface Selector {
  param: string;
  /** The argument's name in usage lines: <name>, <file-system>, <user>. */
  label: string;
  optional?: boolean;
  /** The item's field to filter on where an endpoint lacks `param` (GET /quotas/users has no user_names). */
  field?: string;
}

/** A documented query parameter of a changing endpoint a verb offers as an option (its kind is the endpoint's). */
export interface QueryOption {
  param: string;
  help: string;
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
  /** The body is one JSON document typed as an option (a role's IAM trust policy), checked by its schema. */
  document?: DocumentOption;
  /**
   * The form-data part that carries a secret file (a keytab's `keytab_file`): always asked in the private
   * dialog, as base64, and sent as the file's bytes; the card and the audit name it only.
   */
  secretFile?: string;
}

/** A JSON document that is the whole body of a verb: `--<option> '{…}'`, parsed, then checked by `schema`. */
export interface DocumentOption {
  option: string;
  /** The body's name in cards and help ("policy_document" reads "Policy document"). */
  field: string;
  /** What the document is, in help ("an IAM trust policy: {\"Statement\": [...]}"). */
  help: string;
  schema: ZodType;
}

export interface NounSpec {
  /** The words people type: "snmp manager". */
  noun: string;
  /**
   * The noun takes the operations only REST 2.x has on its path (generated from the 2.x facts: catalogue-2x.ts);
   * without it a noun has the verbs its 1.x path has, whatever 2.x adds beside them.
   */
  rest2?: boolean;
  /**
   * The operations only REST 2.x has on this 1.x noun's own path that it takes as verbs (`POST` makes `create`
   * of an admin): each is gated by the version that has it, so a 1.x array is told which 2.x version does.
   */
  rest2Methods?: readonly HttpMethod[];
  /**
   * Query options of the verb's endpoint that are not body fields, offered as typed `--options` per generic verb
   * (`--paths`, `--released`, `--replicate-now`): sent as query parameters, shown on the card's request line.
   */
  queryOptions?: Readonly<Partial<Record<VerbName, readonly QueryOption[]>>>;
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
  /**
   * Body fields that are lists of objects each wrapping one reference, which the generic fields cannot build
   * from their model (a realm's default object store servers, `[{server: {name}}, …]`): field → the wrapping
   * key and the option typing its names, comma-separated (`--servers a,b`).
   */
  referenceLists?: Readonly<Record<string, { wrap: string; option: string }>>;
  /** Writable only on create. */
  createOnly?: readonly string[];
  /**
   * The update's body takes the object's new `name` (a 2.x fleet or node group is renamed by PATCH `?names=old`
   * with `{name: new}`): offered as `--new-name`, since the bare word already selects the object by its name.
   */
  renamable?: true;
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
  /**
   * How its changing verbs' forms read (src/core/catalogue/forms.ts): one layout for every verb of the noun
   * (keys a verb lacks are ignored), with a title per verb for the forms and workflow steps people know by name.
   */
  form?: FormLayout & { titles?: Readonly<Partial<Record<VerbName, string>>> };
  /** The values a text field takes where the model does not list them (a bucket's versioning). */
  choices?: Readonly<Record<string, readonly string[]>>;
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
  /** Further examples per verb, after the first, in the verb's own help ("--array all"). */
  moreExamples?: Readonly<Partial<Record<VerbName, readonly string[]>>>;
  /** What `list` says where the generic words say too little (an S3 target's list). */
  listing?: ListWords;
  /** `list` also attaches the items as this file (logs). */
  file?: string;
  /**
   * How a change can cut the bot off: the object's `address` is the bot's host, its `prefix` holds it, or the
   * bot reaches the array by a host name (DNS). Checked against the host the bot uses for that array.
   */
  reach?: "address" | "prefix" | "hostname";
  /** Said in the impact of any change: how this change can cut the bot off from the array. */
  cutsOff?: string;
  /**
   * Objects that are destroyed before they are gone (their items have `destroyed`): `destroy` (PATCH
   * destroyed=true, recoverable), `recover` (PATCH destroyed=false) and `eradicate` (DELETE of a destroyed
   * object, permanent, with the typed name) come from generic/lifecycle.ts; `eradicate` takes the DELETE's verb.
   */
  lifecycle?: Lifecycle;
  /** The rule a new object's name follows (src/rest-spec/names.ts), checked before sending (default: any). */
  nameKind?: NameKind;
  /** The object's kind in targets, answers and refusals: "object store user" (default: the noun). */
  title?: string;
  /** The word people type where it is not the generic verb's: a virtual host is added and removed. */
  verbs?: Readonly<Partial<Record<VerbName, string>>>;
  /** Help text per generic verb where the generic one says too little. */
  summaries?: Readonly<Partial<Record<VerbName, string>>>;
  /**
   * The answer per generic verb where the generic "Created <target> on <array>." says too little: `{name}`,
   * `{array}` and `{<option key>}` are filled from the command ("Versioning of bucket {name} is now {versioning}").
   */
  answers?: Readonly<Partial<Record<VerbName, string>>>;
  /** Create refuses a name the array already has (ALREADY_EXISTS, "Nothing was changed."), read before sending. */
  refuseExisting?: boolean;
  /**
   * The precondition read per generic verb: after the generic read of the object, reads what the change rests on,
   * may refuse with a UserFacingError (an account that still holds buckets), and words the impact.
   */
  precheck?: Readonly<Partial<Record<VerbName, Precheck>>>;
  /** A warning per value of a field, said in the impact of a change giving it: field → value → text. */
  valueWarnings?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Verbs that set one field of an object to a fixed value (`access-key enable|disable`): generic/switches.ts. */
  switches?: readonly SwitchVerb[];
  /**
   * The class per generic verb decided from the array's state (the impact's `state`, which the precheck and the
   * generic read fill), with every class it can return declared for the gate.
   */
  classFrom?: Readonly<Partial<Record<VerbName, StateClass>>>;
}

/**
 * A verb that sets one field of an object, named by its first bare word, to a fixed value: one PATCH on the
 * resource's path, refused when the object already has that value. Its sentences are templates: `{name}` (the
 * word given), `{array}`, and any dotted field of the object as read (`{user.name}`; "?" when absent).
 */
export interface SwitchVerb {
  verb: string;
  field: string;
  value: boolean | string | number;
  summary: string;
  /** Words after `<noun> <verb>` that work against the demo array. */
  example: string;
  /** The word: what an invalid one is called in errors, and its help. */
  arg: { what: string; help: string };
  /** The impact's first line ("Disables access key {name} of {user.name}."). */
  doing: string;
  /** The refusal when the object already has the value, before "Nothing was changed." */
  already: string;
  /** The answer once it is done ("Disabled access key {name} on {array}."). */
  done: string;
  /** Said in the impact (what the change cuts off). */
  warning?: string;
  /** The class of harm; none when absent. */
  cls?: DestructiveClass;
}

/**
 * The words of a resource's `list` where the generic ones ("3 targets", "No target objects on …", the field's own
 * headings and units) say too little; each part is optional and falls back to the generic one.
 */
export interface ListWords {
  /** One row, in the headline: "S3 target" → "2 S3 targets on array x" (plural: + s). */
  noun?: string;
  /** The sentence when no array has any, `{where}` filled ("No S3 targets on {where}."). */
  empty?: string;
  /** Column headings of the list alone, where `show` keeps the field's own ("Target" over "Name"). */
  labels?: Readonly<Record<string, string>>;
  /**
   * The key of a row's array in the table's data, where tools and assistants read a list by it since it was
   * hand-written ("array"; default "_array").
   */
  arrayKey?: string;
  /** The CSV file of a long list (default: <noun>.csv). */
  filename?: string;
  /**
   * Which of the endpoint's own list options the verb offers (default: every one it takes); [] leaves ordering
   * and limiting to the options every list has (--sort, --limit over the rows of every array).
   */
  options?: readonly ("limit" | "sort" | "name")[];
  /**
   * What needs the version, in the refusal on an array older than the list's endpoint ("The replication API needs
   * REST 1.9, …"; default: the command, "`target list` needs REST 1.9, …").
   */
  needs?: string;
  /** The list's units where they differ from `show`'s (a status shown as the array says it: `{}`). */
  units?: Readonly<Record<string, Unit>>;
  /** A field said in parentheses after a column's value when it has one: status → status_details. */
  detail?: Readonly<Record<string, string>>;
}

/** The object a change is about, as the precheck sees it. */
export interface PrecheckOn {
  /** The first selector word: the object's name. */
  name: string;
  /** The command's arguments (the fields by their option keys). */
  args: Readonly<Record<string, unknown>>;
  /** The object as the generic read found it (update, delete), when the resource's GET can read it. */
  item?: Readonly<Record<string, unknown>>;
}

/** What a precondition read adds to the impact; `state` voids an approval when it changes. */
export interface PrecheckView {
  /** The impact's first line, in place of the generic "Deletes <target> on <array>.". */
  summary?: Rich;
  facts?: Field[];
  warnings?: Rich[];
  state?: Record<string, StateValue>;
}

export type Precheck = (ctx: CommandContext, on: PrecheckOn) => Promise<PrecheckView>;

export interface StateClass {
  /** Every class `of` can return: the gate and the policy docs read them. */
  classes: readonly DestructiveClass[];
  of(state: Readonly<Record<string, StateValue>>): DestructiveClass | null;
}

export type LifecycleVerb = "destroy" | "recover" | "eradicate";

/** An object in the words of the array: the item its GET answers with. */
export type LifecycleItem = Record<string, unknown> & { name: string; destroyed?: boolean | null };

/** What a resource's hooks read about one object and what surrounds it, before a destroy or an eradication. */
export interface LifecycleView {
  facts: Field[];
  /** The state the gated change rests on: any difference when it runs voids it. */
  state: Record<string, StateValue>;
  /** Said before a destroy: what stops with it (replica links, protocols still served). */
  warnings?: Rich[];
  /** What an eradication loses for good, said after "Permanent: " ("12 GiB of data in home will be lost for good."). */
  lost: string;
  /** The destroying request where it is more than PATCH destroyed=true (a file system turns its protocols off). */
  destroy?: PlannedRequest;
}

/**
 * The lifecycle trait: the words, examples and named hooks of a resource's destroy / recover / eradicate. The
 * refusals (already destroyed, not destroyed: destroy first, recovered since the request), the classes
 * (destroy, eradicate; recover ungated), the roles (operator, operator, admin), the Recover offer and the
 * eradication note are the generic verbs' own.
 */
export interface Lifecycle {
  /** The object's kind in targets and refusals: "file system" (default: the noun). */
  title?: string;
  /** The word before a name in answers ("Destroyed snapshot *x*"); "" where the name stands alone (default: title). */
  called?: string;
  summaries: Readonly<Record<LifecycleVerb, string>>;
  /** Words after `<noun> <verb>` that work against the demo array, per verb. */
  examples: Readonly<Record<LifecycleVerb, readonly string[]>>;
  /** What destroying does at once, in its impact: "it stops serving clients at once". */
  stops?: string;
  /** Where a NOT_FOUND answer points (default: "List them with /array <noun> list --array <array>."). */
  notFoundHint?: string;
  /** The precondition read: the object called `name` as it is now (default: its GET filtered by name). */
  read?(ctx: CommandContext, name: string): Promise<LifecycleItem | undefined>;
  /** Facts, state, warnings and what is lost, read before a destroy or an eradication. */
  view(ctx: CommandContext, item: LifecycleItem): Promise<LifecycleView>;
  /** What recovering brings back, after "Recovers *x* on <array>" (impact) and "Recovered *x* on <array>" (answer). */
  recovers?(item: LifecycleItem): { impact: string; done: string };
}
