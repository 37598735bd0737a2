/**
 * The contract between transports (Slack, the local console) and the command pipeline in src/core.
 * Transports turn their events into these calls and carry out the returned effects; the pipeline never
 * knows which transport it serves.
 */

import type { PendingStatus } from "../approvals/pending-store.js";
import type { FormSpec } from "../catalogue/forms.js";
import type { Message } from "../presentation/message.js";

/**
 * What kind of principal acts: a Slack person (signed payload), an AI assistant (MCP token), a Workflow Builder
 * step (the step Slack ran), or the local console's user. Built only by src/core/access/actors.ts, one function per face.
 */
export type ActorKind = "person" | "assistant" | "workflow" | "console";

/** A Slack person named as a subject of a request: shown, asked, counted as a requester; never a role source. */
export interface PersonRef {
  userId: string;
  displayName?: string;
}

/** Who is acting, as the face verified it. Roles are resolved by the pipeline, never by the face. */
export interface Actor {
  kind: ActorKind;
  /** The principal's id: a Slack user id, `mcp:<client>`, `workflow:<step>`, or the console's user. */
  userId: string;
  channelId: string;
  /** Display name if the face knows it (for audit lines and "approved by …"). */
  displayName?: string;
  /**
   * The person the request is for: the Slack user an assistant acts for (X-Acting-For), or the person Slack
   * vouches for in a workflow step (user_context). Counts as a requester (never the approver of it); for a
   * workflow step, caps its role and confirms its changes.
   */
  onBehalfOf?: PersonRef;
}

/** Where a posted message lives, so it can be updated in place. */
export interface MessageRef {
  channelId: string;
  /** Slack message ts, or any id the transport uses. */
  ts: string;
}

export type Effect =
  /**
   * Answer the actor (ephemeral unless message.visibility is "in_channel"). With `later`, the answer is
   * incomplete (a fan-out past its deadline): the transport replaces it with the message `later` resolves to
   * (Slack edits it through the response URL; the console prints it as a follow-up). `later` never rejects.
   */
  | { kind: "reply"; message: Message; later?: Promise<Message> }
  /** Post a new message in a channel; if `trackPending` is set the transport calls `attachMessage` with its ref. */
  | { kind: "post"; channelId: string; message: Message; trackPending?: string }
  /** Replace a previously posted message. */
  | { kind: "update"; ref: MessageRef; message: Message }
  /** Ask the actor to type a confirmation text (eradication: the object's name) before the click counts. */
  | {
      kind: "prompt";
      pendingId: string;
      title: string;
      label: string;
      actionId: string;
      /**
       * The check, against the array, that the request can still happen, run while the dialog opens (no array
       * call stands between a click and its dialog, whose trigger Slack honours for 3 s): the effects that void
       * the request when it cannot (its card updated, the clicker told), or none. The transport shows the dialog
       * first, then these, closing the dialog when there are any. Never rejects.
       */
      recheck?: Promise<Effect[]>;
    }
  /**
   * Ask the requester, in private, for the secrets a command needs (an access key's secret, a password): a dialog
   * in Slack, an unechoed line in the console. Never typed on the command line, which stays in chat history. The
   * answer comes back as a click with `secrets`, held in memory only for that run.
   */
  | {
      kind: "secret";
      pendingId: string;
      title: string;
      fields: SecretField[];
      actionId: string;
      /** As a prompt's. */
      recheck?: Promise<Effect[]>;
    };

/** One secret a command asks for privately; `key` names it in `ClickInput.secrets` and `CommandContext.secrets`. */
export interface SecretField {
  key: string;
  label: string;
  /** Several lines (a PEM private key); a dialog offers a multi-line box. */
  multiline?: boolean;
  /** A file, typed as base64 (a keytab); the console also takes a path to it on its own machine. */
  file?: boolean;
}

export interface CommandInput {
  text: string;
  actor: Actor;
  /** Transport-level id of the request, used for dedupe of retried deliveries and in audit records. */
  requestId?: string;
  /**
   * The text was built from values, each made one word by wordOf (a form, a workflow step's inputs, an MCP tool's
   * arguments), not typed in Slack: it holds no Slack markup to clean, so `<…>` or `&amp;` in a value stays as is.
   */
  built?: boolean;
  /** Array requests this command may send, when the principal has a lower budget of its own (an MCP client). */
  arrayRequests?: number;
}

export interface ClickInput {
  actionId: string;
  value: string;
  actor: Actor;
  /** The message the button was on, when the transport knows it. */
  ref?: MessageRef;
  /** Text typed in a prompt (eradication confirmation). */
  typedText?: string;
  /**
   * Secrets typed in a private prompt, by SecretField key. They live only in memory for the run they complete:
   * never logged, stored, audited or echoed.
   */
  secrets?: Readonly<Record<string, string>>;
}

/** Identity facts only the transport can know (Slack user groups, guest or deactivated accounts). */
export interface IdentityPort {
  groupsOf(userId: string): Promise<readonly string[]>;
  /** Guests and deactivated users are never above viewer. */
  isRestricted(userId: string): Promise<boolean>;
}

export interface Pipeline {
  /**
   * How long a face lets a command or click run before telling the person the array did not answer in time
   * (twice fan_out_deadline: a read past the deadline has answered "slow" by then). Undefined: no bound.
   */
  readonly answerDeadlineMs?: number;
  handleCommand(input: CommandInput): Promise<Effect[]>;
  handleClick(input: ClickInput): Promise<Effect[]>;
  /** Records where an approval request was posted so later clicks can update every copy in place. */
  attachMessage(pendingId: string, ref: MessageRef): Promise<void>;
  /** Expires stale pending requests and returns updates for their messages. Called on a timer. */
  sweepExpired(): Promise<Effect[]>;
  /**
   * Ends requests a stopped process left "being carried out" (as "interrupted") and returns updates for their
   * cards. Called once at start-up, after the data file is locked and before clicks are taken.
   */
  recoverInterrupted(): Promise<Effect[]>;
  /** The form of a changing command typed as its path alone ("fs create"), for faces that show forms. */
  form?(path: string, channelId?: string): FormSpec | undefined;
  /**
   * Names a form's field may pick, read from the array as the person would read them (their role, the access
   * policy): at most 100, those containing `query` first. Empty when the field lists nothing.
   */
  lookup?(input: {
    actor: Actor;
    path: string;
    field: string;
    query: string;
    array?: string;
  }): Promise<string[]>;
  /**
   * The form a list's Create or Change offer opens on `array`, checked against the person's role there (a
   * refusal is a UserFacingError, as for a typed command); with `name`, prefilled from that object as it is.
   * Without `array`, the channel's default array (a change typed with nothing after it).
   */
  openForm?(input: { actor: Actor; path: string; array?: string; name?: string }): Promise<FormSpec>;
  /**
   * Where a request stands (a workflow step waits on it): its status, its title and, once decided, its outcome.
   * Undefined for an id the store does not hold.
   */
  requestStatus?(id: string): Promise<RequestStatus | undefined>;
}

export interface RequestStatus {
  id: string;
  status: PendingStatus;
  title: string;
  /** The outcome once decided ("ok", an error code, why it was voided). */
  outcome?: string;
}
