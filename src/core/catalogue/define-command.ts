/**
 * Commands are data: each verb is one `defineCommand({...})`, grouped per resource with `defineResource`, and
 * listed once in commands/index.ts. The pipeline does parsing, authorization, confirmation and audit; a
 * command only says what it needs, what it would change, how to do it, and how to show the result.
 */

import type { z } from "zod";
import type { AccessRule, RuleMembers } from "../../config/change-control.js";
import type { ArrayClient, ArrayPool, PlannedCall } from "../../flashblade/types.js";
import type { Logger } from "../../logger.js";
import type { DestructiveClass } from "../../vocabulary.js";
import type { Role } from "../access/roles.js";
import type { HistoryReader } from "../audit/audit-history.js";
import type { ChangeControlRecords } from "../change-control/records.js";
import type { AlertCommandPort } from "../context/alert-port.js";
import type { ActorKind, Effect, SecretField } from "../context/pipeline-types.js";
import type { Field, Message, PartialError, Rich } from "../presentation/message.js";
import type { Responses } from "../requests/send-plan.js";

export type { DestructiveClass };

/**
 * One HTTP call exactly as it will be sent (shown by --dry-run and in confirmations), planned by the client.
 * `on` names the array it goes to when that is not the command's array (a key made on the other array).
 */
export type PlannedRequest = PlannedCall & { on?: string };

/** A state value that goes into the fingerprint; plain JSON so pending requests stay serialisable. */
export type StateValue = string | number | boolean | null;

/** What a mutating command will do, read from the array just before asking. */
export interface Impact {
  /** The object acted on, named in prompts ("file system fs1"). */
  target: string;
  /** One sentence: what will happen. */
  summary: Rich;
  /** Concrete facts: used vs provisioned, snapshot count, protocols, replica links… */
  facts: Field[];
  /** Things to stress: permanent loss, overshoot. */
  warnings: Rich[];
  /** The fields the decision rests on; a change between request and execution voids the request. */
  state: Record<string, StateValue>;
  /** The whole change: the pipeline sends exactly these, in order (src/core/requests/send-plan.ts). */
  requests: PlannedRequest[];
  /**
   * Body values of `requests` that stand for what only the run knows (a typed secret, a key made on another
   * array); the command's `fill` gives their values, and nothing else of a request can change.
   */
  placeholders?: readonly string[];
  /**
   * What the impact read from the array, for `result` to say "before → after" (in memory only: at execution
   * the impact is recomputed just before its requests are sent, so this is the state they were sent against).
   */
  read?: unknown;
  /** When set, whoever confirms or approves must type this text (eradication: the object's name). */
  typeToConfirm?: string;
}

export interface CommandActor {
  kind?: ActorKind;
  userId: string;
  channelId: string;
  displayName?: string;
  role: Role;
}

/** Change control as a command sees it (src/core/pipeline/runtime.ts builds it per request). */
export interface ControlPort {
  readonly records: ChangeControlRecords;
  readonly config: { accessRules: readonly AccessRule[]; breakGlass: RuleMembers };
  groupsOf(userId: string): Promise<readonly string[]>;
  /** Opens an access request; its card goes to the approvers with the command's answer. */
  requestAccess(ask: { role: Role; arrays: string; forMs: number; reason: string }): Promise<void>;
  /** Cards a command asked to post, carried out with its answer. */
  readonly outbox: Effect[];
}

/** What `impact` and `run` receive. `array` throws for global commands, which use `pool` instead. */
export interface CommandContext {
  readonly array: ArrayClient;
  readonly arrayName: string;
  readonly pool: ArrayPool;
  readonly actor: CommandActor;
  readonly logger: Logger;
  readonly requestId: string;
  /** IANA time zone for times shown in impacts. */
  readonly timeZone: string;
  /** How long a command that asks several arrays waits before answering with what arrived (fan_out_deadline). */
  readonly fanOutDeadlineMs: number;
  /** How many arrays this request asks at once: a fan-out's width (`--array all`), 1 for one array. */
  readonly fanOut: number;
  /** The alert engine, for `alert routes|test` (absent where it does not run). */
  readonly alerts?: AlertCommandPort;
  /** The bot's kept records of changes, by object (`/array history`; absent where no store keeps them). */
  readonly history?: HistoryReader;
  /** Change control's records and rules, and access requests (`/array access`, `/array audit break-glass`). */
  readonly control?: ControlPort;
  /**
   * True when `impact` runs again for a request made earlier (at the last click, before it is carried out), so a
   * precondition that fails can say what changed ("not destroyed any more") rather than what to do first.
   */
  readonly recheck?: boolean;
  /**
   * The secrets `secrets()` asked for, typed by the requester in a private prompt, by key. Present only in the
   * `run` that follows the prompt; in memory only (never in args, the pending store or the audit).
   */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Filled as pages come back partial (REST 2.x 207); the pipeline adds them to the answer. */
  readonly partial?: PartialError[];
  now(): number;
}

/** What `render` may know besides the data: never the clock itself, so rendering stays pure. */
export interface RenderContext {
  /** The arrays the answer covers. */
  arrays: readonly string[];
  /** "Now" as the pipeline saw it, for relative times. */
  now: number;
  /** IANA time zone for absolute times; "UTC" unless configured. */
  timeZone: string;
  /** Rows a table shows before the rest goes with it as CSV (`table_rows`; DEFAULT_ROW_LIMIT when absent). */
  tableRows?: number;
}

/** A button offered with a result (after a destroy: Recover). It runs `commandId` with `args` when clicked. */
export interface FollowUp {
  label: string;
  commandId: string;
  args: Record<string, StateValue>;
  /** How long the offer stays valid at most (the array may end it sooner). */
  validForMs: number;
  /** "danger" for an offer that leads to a permanent change (Eradicate); primary otherwise. */
  style?: "primary" | "danger";
}

/**
 * A form's layout, as a person chose it (data beside the command's catalogue entry): the fields in the order a
 * person thinks of them, labels and hints in words, and menus for arguments naming an existing object of a
 * kind the argument's name does not tell (a rule's `policy` is an NFS export policy, not a snapshot policy).
 */
export interface FormLayout {
  /** What the form and its workflow step are called ("Start a maintenance window"); the command's path if absent. */
  title?: string;
  /** Argument keys first in this order; the others follow as the schema lists them. */
  order?: readonly string[];
  labels?: Readonly<Record<string, string>>;
  hints?: Readonly<Record<string, string>>;
  /**
   * Arguments picked from a list of the array: the GET path and the field of each item that is its name; null
   * for one typed although its name suggests a list (a file system export's policy is NFS or SMB).
   */
  lookups?: Readonly<Record<string, { path: string; field: string } | null>>;
}

export interface CommandDefinition<S extends z.ZodObject = z.ZodObject, R = unknown> {
  /** The verb: `/array fs <verb>`. */
  verb: string;
  summary: string;
  /** Full command lines without `/array`, e.g. "fs resize fs1 2T". */
  examples: readonly string[];
  /** Arguments (positional and options); validated once, before anything else runs. */
  args: S;
  /** Keys of `args` taken from bare words, in order. */
  positional?: readonly (keyof z.input<S> & string)[];
  /** Minimum role to run it: at least what the access policy needs for every endpoint in `endpoints`. */
  role: Role;
  /**
   * The requests it sends, `METHOD /path` (with ` {facet}` when verbs share a changing endpoint for different
   * purposes: `fs destroy` and `fs recover` both PATCH /file-systems; `METHOD *` for the raw call, checked per
   * request). Catalogue verbs declare theirs from their data, hand-written ones here; the registry checks that
   * every command declares them and `role` against the policy for each, and a test runs every example on the
   * demo arrays to check that what it sends is within what it declares.
   */
  /**
   * Only REST 2.x arrays have this verb, on a resource every array has (`admin create`, REST 2.15): a 1.x array
   * is told which 2.x version has it, and the examples are run on arrays pinned to 2.x.
   */
  rest2Only?: boolean;
  endpoints?: readonly string[];
  /** How its form reads where the argument schema alone reads poorly (forms.ts): order, words, menus. */
  form?: FormLayout;
  /** Ids of commands this one replaces on the same endpoint ("bucket.delete"): the registry drops those. */
  replaces?: readonly string[];
  /** "global" commands do not target an array (pool health). */
  scope?: "array" | "global";
  /**
   * A global command that takes `--array` or `--reason` as arguments of its own (an access request names the
   * arrays it is for, and why): the argument keys they are bound to. Any other global command refuses them.
   */
  globalOptionsAsArgs?: { array?: string; reason?: string };
  /**
   * Whether `--array all|a,b|tag:…` may run it on several arrays. "refuse" for a command that names one object
   * by an array-local id or name (alert 2 is a different alert on each array); "safe" for listings and totals.
   * Default: refuse when a positional argument is required (it names the object), safe otherwise.
   */
  fanOut?: "safe" | "refuse";
  /** Answers to lookups stay private; changes are announced in the channel. */
  visibility?: "ephemeral" | "in_channel";
  /** A mutating command describes what it will change; its presence makes --dry-run and confirmation work. */
  impact?(args: z.output<S>, ctx: CommandContext): Promise<Impact>;
  /** The class of harm, if any, decided from the arguments and the impact read from the array. */
  destructive?(args: z.output<S>, impact: Impact): DestructiveClass | null;
  /** Every class `destructive` may return: the start-up check that each configured class guards something. */
  gateClasses?: readonly DestructiveClass[];
  /**
   * Secrets the command needs that must not be typed in chat (Slack keeps every line): the pipeline asks the
   * requester for them privately after showing the impact, and `run` finds them in `ctx.secrets`. A command that
   * asks for secrets needs `impact`.
   */
  secrets?(args: z.output<S>): readonly SecretField[];
  /** What a command without `impact` does (reads). A command with an impact plans; the pipeline sends. */
  run?(args: z.output<S>, ctx: CommandContext, impact: Impact | undefined): Promise<R>;
  /**
   * Values for the impact's placeholders, asked just before the first request holding one is sent; `responses`
   * holds what the requests before it answered.
   */
  fill?(args: z.output<S>, ctx: CommandContext, responses: Responses): Promise<Record<string, unknown>>;
  /** What a change says after its planned requests were sent: built from their answers, in order. */
  result?(responses: Responses, args: z.output<S>, ctx: CommandContext, impact: Impact): R | Promise<R>;
  /** Pure: data in, message out. */
  render(result: R, args: z.output<S>, rctx: RenderContext): Message;
  /** Combines per-array results of a fan-out into one (e.g. one table with an array column). */
  merge?(results: { array: string; result: R }[]): R;
  /**
   * Buttons to offer with the result. Clicking one runs its command for whoever clicks; a destructive one
   * (Eradicate) opens the same gate as typing the command, with the clicker as the requester.
   */
  followUp?(result: R, args: z.output<S>): FollowUp | readonly FollowUp[] | undefined;
}

/** The areas `/array help` groups resources by, in this order. */
export const AREAS = [
  "Storage",
  "Protection",
  "Replication",
  "Object store",
  "Network",
  "Identity and security",
  "Operations",
  "Insight",
] as const;
export type Area = (typeof AREAS)[number];

export interface ResourceDefinition {
  /** One or more words: "fs", "snmp manager" (see command-path.ts). */
  name: string;
  /** Where `/array help` lists it; "Operations" when absent. */
  area?: Area;
  aliases?: readonly string[];
  summary: string;
  /** The verb run when none is given (`/array arrays`). */
  defaultVerb?: string;
  /**
   * Only REST 2.x arrays have it (a generated noun of a 2.x-only family): `/array help <name>`, docs/commands.md
   * and the tools list it, while the help overview and the App Home keep to what every array has.
   */
  rest2Only?: boolean;
  /**
   * A 2.x-only family made first-class (issue 42: export and QoS policies, WORM, holds, windows…): the help
   * overview and the App Home name it in a short "REST 2.x only" line, so a person on a 2.x array finds it there.
   */
  rest2Featured?: boolean;
  /** The words after the name are the default verb's arguments unless one is a verb (`history fs builds`). */
  argsAfterNoun?: boolean;
  commands: readonly CommandDefinition[];
}

/** Identity helper: infers the argument type of every callback from the `args` schema. */
export function defineCommand<S extends z.ZodObject, R>(
  def: CommandDefinition<S, R>,
): CommandDefinition<S, R> {
  return def;
}

/** Whether a command may fan out over several arrays: its declaration, else derived from its arguments. */
export function fanOutSafe(def: CommandDefinition): boolean {
  if (def.fanOut !== undefined) return def.fanOut === "safe";
  const shape = def.args.shape as Record<string, z.ZodType>;
  return !(def.positional ?? []).some((key) => {
    const schema = Object.hasOwn(shape, key) ? shape[key] : undefined;
    return schema !== undefined && !schema.safeParse(undefined).success;
  });
}

export function defineResource(def: ResourceDefinition): ResourceDefinition {
  return def;
}
