/**
 * Who is acting: an actor is a value with a kind, made by one function per face from what that face verified
 * (the signed Slack payload's user, an MCP bearer token, the workflow step Slack ran, the console's own user).
 * Nothing carried as data (an input, a header, a form field, an argument) becomes an actor: a person named in
 * data is at most a subject (`onBehalfOf`), who is shown and counts as a requester, and never lends a role.
 * The principal id of a non-person carries its kind (`mcp:<client>`, `workflow:<step>`); Slack user ids never
 * hold a colon, so no person can be mistaken for one and no data can name a principal into being a person.
 */
import { UserFacingError } from "../../errors.js";
import type { Actor, ActorKind, PersonRef } from "../context/pipeline-types.js";

export type { Actor, ActorKind, PersonRef };

export const ASSISTANT_PREFIX = "mcp:";
export const WORKFLOW_PREFIX = "workflow:";

/** A Slack user id as Slack issues them (U… or W… in Enterprise Grid). */
export const SLACK_USER_ID = /^[UW][A-Z0-9]+$/;

/** The principal id of an MCP client. */
export const assistantId = (client: string): string => `${ASSISTANT_PREFIX}${client}`;
/**
 * The principal id of a workflow step (its callback id), with the person Slack vouched for when there is one:
 * `workflow:run_array_command@U0ALICE`. The id itself says whose role caps the step's, so every check that
 * resolves a role from an id (authz.ts) applies the cap, and limits are charged to that step and person.
 */
export const workflowId = (step: string, vouched?: string): string =>
  `${WORKFLOW_PREFIX}${step}${vouched ? `@${vouched}` : ""}`;

/** `workflow:<step>[@<person>]` → its parts. */
export function parseWorkflowId(id: string): { step: string; vouched?: string } {
  const [step = "", vouched] = id.slice(WORKFLOW_PREFIX.length).split("@");
  return { step, ...(vouched ? { vouched } : {}) };
}

/** The kind a stored principal id stands for (pending records and audit keep ids, not actors). */
export function kindOfPrincipal(id: string): Exclude<ActorKind, "console"> {
  if (id.startsWith(ASSISTANT_PREFIX)) return "assistant";
  if (id.startsWith(WORKFLOW_PREFIX)) return "workflow";
  return "person";
}

/** A person Slack signed for: the user of a slash command, a click, a modal submission or a Home event. */
export function personActor(userId: string, channelId: string, displayName?: string): Actor {
  return { kind: "person", userId, channelId, ...(displayName ? { displayName } : {}) };
}

/** An MCP client, from its bearer token; `actsFor` is a Slack user the client names: a subject, never a role. */
export function assistantActor(client: string, channelId: string, actsFor?: PersonRef): Actor {
  return {
    kind: "assistant",
    userId: assistantId(client),
    channelId,
    displayName: `assistant ${client}`,
    ...(actsFor ? { onBehalfOf: actsFor } : {}),
  };
}

/**
 * A workflow step, as Slack ran it. `vouched` is a person Slack itself filled in (a `user_context` input or an
 * interactivity's interactor, which a workflow builder cannot set by hand): it caps the step's role and is the
 * one who must confirm a change; without one, the step changes nothing.
 */
export function workflowActor(step: string, channelId: string, vouched?: PersonRef): Actor {
  return {
    kind: "workflow",
    userId: workflowId(step, vouched?.userId),
    channelId,
    displayName: `workflow step ${step}`,
    ...(vouched ? { onBehalfOf: vouched } : {}),
  };
}

/** The local console's user (the terminal is the person: `/as` switches it). */
export function consoleActor(user: string, channelId: string, displayName?: string): Actor {
  return { kind: "console", userId: user, channelId, ...(displayName ? { displayName } : {}) };
}

/** Actors that may click (confirm, approve, deny): people, in Slack or at the console. */
export const canDecide = (a: Pick<Actor, "kind">): boolean => a.kind === "person" || a.kind === "console";

/**
 * The pipeline's entry check: an actor must have a kind and an id that fits it. A face that forgot to build its
 * actor through the functions above is refused here, before anything runs.
 */
export function assertActor(a: Partial<Actor> | undefined): asserts a is Actor {
  const ok =
    a !== undefined &&
    typeof a.userId === "string" &&
    a.userId !== "" &&
    typeof a.channelId === "string" &&
    ((a.kind === "person" && SLACK_USER_ID.test(a.userId)) ||
      (a.kind === "assistant" && a.userId.startsWith(ASSISTANT_PREFIX)) ||
      (a.kind === "workflow" && a.userId.startsWith(WORKFLOW_PREFIX)) ||
      (a.kind === "console" && !a.userId.includes(":")));
  if (!ok)
    throw new UserFacingError(
      "ACTOR_UNKNOWN",
      "The bot could not tell who is acting, so it did nothing. This is a defect of the bot's face: report it.",
    );
}

/**
 * Everyone who asked for a change: its requester and the person it is on behalf of. None of them can be the
 * approval that makes it "someone else's".
 */
export function requesterIds(rec: {
  requester: { userId: string };
  onBehalfOf?: { userId: string } | undefined;
}): ReadonlySet<string> {
  return new Set([rec.requester.userId, ...(rec.onBehalfOf ? [rec.onBehalfOf.userId] : [])]);
}

type Person = { userId: string; displayName?: string };
const personOf = (p: { userId: string; displayName?: string | undefined }): Person => ({
  userId: p.userId,
  ...(p.displayName ? { displayName: p.displayName } : {}),
});

/**
 * Who a pending change is recorded as requested by. A workflow step's change is the vouched person's (the step is
 * `via`, shown but never deciding); an assistant's is the assistant's, with the person it acts for beside it.
 */
export function requesterOf(a: Actor): { requester: Person; via?: Person; onBehalfOf?: Person } {
  if (a.kind === "workflow" && a.onBehalfOf) return { requester: personOf(a.onBehalfOf), via: personOf(a) };
  return { requester: personOf(a), ...(a.onBehalfOf ? { onBehalfOf: personOf(a.onBehalfOf) } : {}) };
}

/**
 * Every face, how it establishes its actor, and what a name carried in its data can and cannot do: the identity
 * section of docs/security.md is generated from this, and test/security/identity-sweep.test.ts tries each field.
 */
export const FACES: readonly {
  face: string;
  kind: ActorKind;
  actor: string;
  /** Places in the face's requests where a user id can be carried as data. */
  dataFields: readonly string[];
  namedPerson: string;
}[] = [
  {
    face: "slash command",
    kind: "person",
    actor: "the `user_id` of the request Slack signed",
    dataFields: ["the command's text (`--as`, `--user`, a mention)"],
    namedPerson: "an argument; never an actor or a role",
  },
  {
    face: "button",
    kind: "person",
    actor: "the `user.id` of the signed `block_actions` payload",
    dataFields: ["the button's value", "the message it was on"],
    namedPerson: "nothing: a value names a request, and the clicker's own role decides",
  },
  {
    face: "modal",
    kind: "person",
    actor: "the `user.id` of the signed `view_submission`",
    dataFields: ["the view's private_metadata", "the form's fields"],
    namedPerson:
      "a form value becomes one word of the form's own command; metadata naming another command runs nothing",
  },
  {
    face: "App Home",
    kind: "person",
    actor: "the `user.id` of the signed event or click",
    dataFields: ["the button's value (an array and a command)"],
    namedPerson: "nothing",
  },
  {
    face: "workflow step",
    kind: "workflow",
    actor:
      "the step itself, `workflow:<step>`, with the role `workflow_steps` gives it (none by default), capped by the person Slack vouches for in its `requester` input (a `user_context`, which no builder can set)",
    dataFields: ["any input (`user`, `run_as`, a user id typed as text)"],
    namedPerson:
      "nothing: only the vouched person counts; they confirm every change and can never approve it; limits are charged to the step and that person",
  },
  {
    face: "MCP",
    kind: "assistant",
    actor:
      "the client its bearer token belongs to, `mcp:<client>`, with the role its `mcp.clients` entry gives",
    dataFields: ["the `X-Acting-For` header", "a tool's arguments"],
    namedPerson:
      "`X-Acting-For` must be a Slack user id: shown on the card as a mention and counted as a requester, so they cannot approve it; it gives no right",
  },
  {
    face: "console",
    kind: "console",
    actor: "the terminal's user, switched only by the console's own `/as`",
    dataFields: ["the command's text"],
    namedPerson: "an argument; never an actor",
  },
];
