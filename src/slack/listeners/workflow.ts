/**
 * Workflow Builder steps: "Run an /array command" (the workflow hands it a line) and one step per common change
 * (core/workflow-steps.ts: a form the workflow fills). Who acts is the step itself, `workflow:<step>`, with the
 * role the configuration gives it (none by default), capped by the person Slack vouches for in its `requester`
 * input (a user_context, which no workflow builder can set). Any change waits for that person's own Confirm click
 * (and then for approvals where its class asks them): a workflow never changes an array on its own. The step
 * completes with the result once the change is carried out, and fails when it is refused, denied, expires or is
 * voided. Outputs go to other steps: they never carry a secret, and array text in them is escaped.
 */
import type { App } from "@slack/bolt";
import { SLACK_USER_ID, workflowActor } from "../../core/access/actors.js";
import {
  RUN_COMMAND_STEP,
  stepIdOf,
  stepLine,
  WORKFLOW_CHANGES,
  withArrayField,
} from "../../core/catalogue/workflow-steps.js";
import { ACTIONS } from "../../core/context/pipeline-deps.js";
import type { Effect, PersonRef, Pipeline, RequestStatus } from "../../core/context/pipeline-types.js";
import { escapeSlackMarkup, withoutSecrets } from "../../core/presentation/outbound.js";
import { isUserFacing } from "../../errors.js";
import { runEffects } from "../effects.js";
import { realSleep } from "../paced-client.js";
import { messageToPlainText } from "../plain-text.js";
import type { ListenerContext } from "./context.js";

export { RUN_COMMAND_STEP };

/** How often a waiting step reads where its request stands; the store is shared, so any replica may decide. */
const POLL_MS = 2_000;
/** A step never waits longer than this (a pending request expires well before: 15 minutes by default). */
const MAX_WAIT_MS = 24 * 3_600_000;

const PIPELINE_BUTTONS = new Set<string>([ACTIONS.confirm, ACTIONS.approve]);

/** The request a command's answer opened (an approval card, or a Confirm button), if any. */
export function pendingIdOf(effects: readonly Effect[]): string | undefined {
  for (const e of effects) {
    if (e.kind === "post" && e.trackPending) return e.trackPending;
    if (e.kind !== "post" && e.kind !== "reply") continue;
    for (const b of e.message.blocks) {
      if (b.type !== "actions") continue;
      const button = b.buttons.find((x) => PIPELINE_BUTTONS.has(x.actionId));
      if (button?.value) return button.value;
    }
  }
  return undefined;
}

const OPEN = new Set(["pending", "claimed"]);

/** Waits until the request is decided (or the wait ends); `sleep` is injected so tests need no real time. */
export async function waitForDecision(
  pipeline: Pick<Pipeline, "requestStatus">,
  id: string,
  sleep: (ms: number) => Promise<void>,
  pollMs = POLL_MS,
): Promise<RequestStatus | undefined> {
  for (let waited = 0; waited <= MAX_WAIT_MS; waited += pollMs) {
    const s = await pipeline.requestStatus?.(id);
    if (!s || !OPEN.has(s.status)) return s;
    await sleep(pollMs);
  }
  return pipeline.requestStatus?.(id);
}

type StepArgs = Parameters<Parameters<App["function"]>[1]>[0];

/**
 * The person Slack vouches for in a run: the `requester` user_context (`{ id, secret }`), or an interactivity
 * input's `interactor`. A plain user id (a `user_id` input, a text field) is data a builder typed: never a person.
 */
export function vouchedPerson(inputs: Readonly<Record<string, unknown>>): PersonRef | undefined {
  const idOf = (v: unknown): string | undefined => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    const id = (v as { id?: unknown }).id;
    return typeof id === "string" && SLACK_USER_ID.test(id) ? id : undefined;
  };
  const interactivity = inputs["interactivity"];
  const interactor =
    typeof interactivity === "object" && interactivity !== null
      ? (interactivity as { interactor?: unknown }).interactor
      : undefined;
  const id = idOf(inputs["requester"]) ?? idOf(interactor);
  return id === undefined ? undefined : { userId: id };
}

/** The answer as another step will read it: no secret, array text escaped, within Slack's output size. */
function outputText(effects: readonly Effect[]): string {
  const answer = effects.flatMap((e) => (e.kind === "reply" || e.kind === "post" ? [e.message] : []));
  return withoutSecrets(answer)
    .map((m) => escapeSlackMarkup(messageToPlainText(m).trim()))
    .join("\n\n");
}

/**
 * Runs one workflow step's command line as `userId` in `channelId`: the pipeline's access policy, impact and gate,
 * then the wait for its confirmation or approval; completes or fails the step. Shared by every step.
 */
async function runStepLine(
  ctx: ListenerContext,
  sleep: (ms: number) => Promise<void>,
  step: string,
  text: string,
  inputs: Readonly<Record<string, unknown>>,
  { complete, fail, body }: Pick<StepArgs, "complete" | "fail" | "body">,
  built = false,
): Promise<void> {
  const channelId = typeof inputs["channel"] === "string" ? inputs["channel"] : "";
  if (text === "" || !/^[CGD][A-Z0-9]+$/.test(channelId)) {
    await fail({ error: "The step needs a command and a channel." });
    return;
  }
  const requestId = `wf-${body.event.function_execution_id}`;
  if (!(await ctx.dedupe.firstTime(`function:${requestId}`))) return;
  const person = vouchedPerson(inputs);
  const actor = workflowActor(step, channelId, person);
  const log = ctx.logger.child({ reqId: requestId, user: actor.userId, step });
  await ctx.inflight.track(async () => {
    try {
      const effects = await ctx.pipeline.handleCommand({ text, actor, requestId, built });
      // Private answers (a Confirm card, a secret shown once) go to the person Slack vouched for; with nobody
      // behind the run there is no one to answer privately, so only channel posts go out.
      const delivered = person ? effects : effects.filter((e) => e.kind !== "reply");
      const to = { userId: person?.userId ?? "", channelId };
      await runEffects(delivered, { actor: to, requestId, logger: log }, ctx.effects);
      const said = outputText(effects);
      const pending = pendingIdOf(effects);
      if (pending === undefined) {
        // Answered at once: a read, an ungated change, or a refusal (the answer is then an error).
        // An error answer carries its code (runtime.errorEffects): the command was refused or failed.
        if (effects.some((e) => e.kind === "reply" && e.message.error !== undefined))
          await fail({ error: said.slice(0, 2000) || "The command was refused." });
        else await complete({ outputs: { status: "done", result: said.slice(0, 4000), request_id: "" } });
        return;
      }
      const decided = await waitForDecision(ctx.pipeline, pending, sleep);
      if (decided?.status === "executed") {
        await complete({
          outputs: { status: "executed", result: decided.title, request_id: pending },
        });
      } else {
        const why = decided
          ? `${decided.status}${decided.outcome ? ` (${decided.outcome})` : ""}`
          : "unknown";
        await fail({ error: `${decided?.title ?? text}: not carried out, the request is ${why}.` });
      }
    } catch (err) {
      log.error({ err }, "workflow step failed");
      await fail({ error: "The step failed on the bot's side; the details are in its log." }).catch(() => {});
    }
  });
}

export function registerWorkflow(app: App, ctx: ListenerContext, sleep = realSleep): void {
  app.function(RUN_COMMAND_STEP, async (args) => {
    const { inputs } = args;
    const text = typeof inputs["command"] === "string" ? inputs["command"].replace(/^\/array\s+/, "") : "";
    await runStepLine(ctx, sleep, RUN_COMMAND_STEP, text, inputs, args);
  });
  // One step per common change: its inputs are the change's form, the line is built as a submitted form's.
  for (const path of WORKFLOW_CHANGES) {
    const step = stepIdOf(path);
    app.function(step, async (args) => {
      const form = ctx.pipeline.form?.(path);
      let text: string;
      try {
        text = form ? stepLine(withArrayField(form), args.inputs) : "";
      } catch (err) {
        // A value no quoting can carry is refused (wordOf), naming its input; nothing runs.
        await args.fail({ error: isUserFacing(err) ? err.message : "The step's inputs could not be read." });
        return;
      }
      await runStepLine(ctx, sleep, step, text, args.inputs, args, true);
    });
  }
}
