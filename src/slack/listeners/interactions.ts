/**
 * Button clicks and prompt submissions (a typed name, secrets). Each is acknowledged first, then handed to the
 * pipeline with the clicker as actor: the pipeline re-authorises every click, the transport never decides who
 * may act.
 */
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { personActor } from "../../core/access/actors.js";
import { ACTIONS } from "../../core/context/pipeline-deps.js";
import type { Actor, ClickInput, MessageRef } from "../../core/context/pipeline-types.js";
import { toUserMessage } from "../../errors.js";
import { lazyChild } from "../../logger.js";
import { answerInTime, lateNotice } from "../answer-deadline.js";
import { CARD_TYPED } from "../block-render.js";
import { baseActionId } from "../blocks.js";
import { type EffectScope, runEffects } from "../effects.js";
import {
  PROMPT_BLOCK_ID,
  PROMPT_CALLBACK_ID,
  type PromptOrigin,
  readPromptSubmission,
} from "../prompt-modal.js";
import { readSecretSubmission, SECRET_CALLBACK_ID } from "../secret-modal.js";
import { type ListenerContext, responder } from "./context.js";

const REFRESHES_HOME = new Set<string>([ACTIONS.confirm, ACTIONS.approve, ACTIONS.deny]);
/**
 * Clicks the pipeline takes: every block action except a list's offers ("form.…", which open a form) and App
 * Home's ("home.…", which run a read); their own listeners acknowledge those. The listener takes every block
 * action and steps aside for those two rather than matching on the action id: a payload with no action id, or
 * one that is not a string, matches no pattern, and Bolt would hold it unanswered for 3 seconds.
 */
const CLICKS = { type: "block_actions" } as const;
const OWN_LISTENER = /^(?:form|home)\./;

async function click(ctx: ListenerContext, input: ClickInput, scope: EffectScope): Promise<void> {
  await ctx.inflight.track(async () => {
    try {
      const route = ctx.clickRoutes.find((r) => r.matches(input.actionId));
      const deadline = ctx.pipeline.answerDeadlineMs;
      const effects = await answerInTime(
        (route ?? ctx.pipeline).handleClick(input),
        deadline,
        async () => {
          const notice = lateNotice(deadline ?? 0);
          await runEffects(
            [{ kind: "reply", message: { text: notice.text, blocks: [] } }],
            scope,
            ctx.effects,
          );
        },
        (err) => scope.logger.warn({ err }, "could not send the late notice"),
      );
      const failed = await runEffects(effects, scope, ctx.effects);
      ctx.metrics.clicks.inc({ outcome: failed > 0 ? "error" : "ok" });
      // What the person's home shows (approvals waiting, the arrays) may have changed with their decision.
      if (REFRESHES_HOME.has(input.actionId)) ctx.homeRefresh?.changed(input.actor.userId);
    } catch (err) {
      ctx.metrics.clicks.inc({ outcome: "error" });
      scope.logger.error({ err }, "click failed");
      await runEffects(
        [{ kind: "reply", message: { text: toUserMessage(err, scope.requestId), blocks: [] } }],
        scope,
        ctx.effects,
      );
    }
  });
}

/** The text in the card's typed-answer box when the click was made, if any. */
function cardTyped(body: BlockAction): string | undefined {
  const values = (body as { state?: { values?: Record<string, Record<string, { value?: unknown }>> } }).state
    ?.values;
  const v = values?.[CARD_TYPED.blockId]?.[CARD_TYPED.actionId]?.value;
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

export function registerInteractions(app: App, ctx: ListenerContext): void {
  app.action<BlockAction<ButtonAction>>(CLICKS, async ({ ack, body, action, respond }) => {
    if (typeof action.action_id === "string" && OWN_LISTENER.test(action.action_id)) return;
    await ack();
    if (action.type !== "button") return;
    if (!ctx.inflight.accepting) {
      await respond({
        response_type: "ephemeral",
        replace_original: false,
        text: "The bot is restarting. Click again in a minute.",
      });
      return;
    }
    const requestId = body.trigger_id;
    const log = lazyChild(ctx.logger, {
      reqId: requestId,
      user: body.user.id,
      action: baseActionId(action.action_id),
    });
    if (!(await ctx.dedupe.firstTime(`click:${requestId}:${action.action_ts}`))) {
      log.info("duplicate delivery of a click ignored");
      return;
    }
    const container = body.container as { channel_id?: string; message_ts?: string; is_ephemeral?: boolean };
    const channelId = body.channel?.id ?? container.channel_id ?? "";
    const ts = body.message?.ts ?? container.message_ts;
    const actor: Actor = personActor(body.user.id, channelId, body.user.name ?? body.user.username);
    const input: ClickInput = { actionId: baseActionId(action.action_id), value: action.value ?? "", actor };
    // A name typed in the card's own box goes with the click, so one click approves; an empty box opens the dialog.
    const typed = cardTyped(body);
    if (typed !== undefined) input.typedText = typed;
    const scope: EffectScope = {
      actor,
      requestId,
      logger: log,
      respond: responder(respond),
      triggerId: body.trigger_id,
    };
    if (ts !== undefined && channelId !== "") {
      const ref: MessageRef = { channelId, ts };
      input.ref = ref;
      scope.source = { ref, ephemeral: container.is_ephemeral === true };
    }
    await click(ctx, input, scope);
  });

  app.view(PROMPT_CALLBACK_ID, async ({ ack, body, view }) => {
    const sub = readPromptSubmission(view);
    if (sub === undefined) {
      await ack();
      ctx.logger.warn({ user: body.user.id }, "prompt submission with unreadable metadata ignored");
      return;
    }
    if (sub.typedText.trim() === "") {
      await ack({ response_action: "errors", errors: { [PROMPT_BLOCK_ID]: "Type the name to confirm." } });
      return;
    }
    await ack();
    await submitted(ctx, view.id, body.user, sub, { typedText: sub.typedText }, false);
  });

  // The secrets typed in the dialog go to the pipeline in memory; nothing here logs the view or its values.
  app.view(SECRET_CALLBACK_ID, async ({ ack, body, view }) => {
    const sub = readSecretSubmission(view);
    if (sub === undefined) {
      await ack();
      ctx.logger.warn({ user: body.user.id }, "secret submission with unreadable metadata ignored");
      return;
    }
    if (sub.empty.length > 0) {
      const errors = Object.fromEntries(sub.empty.map((id) => [id, "Type the value, or cancel."]));
      await ack({ response_action: "errors", errors });
      return;
    }
    await ack();
    // The card a secret confirms is the requester's own private one, editable only through response_url.
    await submitted(ctx, view.id, body.user, sub, { secrets: sub.secrets }, true);
  });
}

/**
 * A submitted modal goes on as a click on the card it answers. A modal is submitted once; a second delivery
 * of the same view is a retry. `ephemeral` says whether that card is private to the requester.
 */
async function submitted(
  ctx: ListenerContext,
  viewId: string,
  user: { id: string; name?: string },
  sub: PromptOrigin,
  answer: Pick<ClickInput, "typedText"> | Pick<ClickInput, "secrets">,
  ephemeral: boolean,
): Promise<void> {
  const requestId = viewId;
  if (!(await ctx.dedupe.firstTime(`view:${requestId}`))) return;
  const actor: Actor = personActor(user.id, sub.channelId, user.name);
  const log = ctx.logger.child({ reqId: requestId, user: user.id, action: sub.actionId });
  const input: ClickInput = { actionId: sub.actionId, value: sub.pendingId, actor, ...answer };
  const scope: EffectScope = { actor, requestId, logger: log };
  // The typed-name dialog's card is replaced through the response_url of the click that opened the dialog.
  const respond = ephemeral ? undefined : ctx.effects.dialogResponders?.of(sub.pendingId, user.id);
  if (respond) scope.respond = respond;
  if (sub.ref !== undefined) {
    input.ref = sub.ref;
    scope.source = { ref: sub.ref, ephemeral };
  }
  await click(ctx, input, scope);
}
