/**
 * A Workflow Builder step, "Run an /array command": a workflow hands it the command line, the person it runs
 * as and the channel; the step runs that line through the pipeline as that person, so the access policy, the
 * impact, the confirmation or approval and the audit are those of a typed command (its card is posted in the
 * channel, where people click as usual). It completes with the result once the change is carried out, and
 * fails when the command is refused, or the request is denied, expires or is voided. Nothing here decides.
 * Besides it, one step per common change (core/workflow-steps.ts): a form filled by the workflow, run the same way.
 */
import type { App } from "@slack/bolt";
import { ACTIONS } from "../../core/pipeline-deps.js";
import type { Actor, Effect, Pipeline, RequestStatus } from "../../core/pipeline-types.js";
import {
  RUN_COMMAND_STEP,
  stepIdOf,
  stepLine,
  WORKFLOW_CHANGES,
  withArrayField,
} from "../../core/workflow-steps.js";
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
  const userId = typeof inputs["user"] === "string" ? inputs["user"] : "";
  const channelId = typeof inputs["channel"] === "string" ? inputs["channel"] : "";
  if (text === "" || userId === "" || channelId === "") {
    await fail({ error: "The step needs a command, the person it runs as and a channel." });
    return;
  }
  const requestId = `wf-${body.event.function_execution_id}`;
  if (!(await ctx.dedupe.firstTime(`function:${requestId}`))) return;
  const actor: Actor = { userId, channelId };
  const log = ctx.logger.child({ reqId: requestId, user: userId, step });
  await ctx.inflight.track(async () => {
    try {
      const effects = await ctx.pipeline.handleCommand({ text, actor, requestId, built });
      await runEffects(effects, { actor, requestId, logger: log }, ctx.effects);
      const answer = effects.flatMap((e) => (e.kind === "reply" || e.kind === "post" ? [e.message] : []));
      const said = answer.map((m) => messageToPlainText(m).trim()).join("\n\n");
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
