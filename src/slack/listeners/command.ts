/**
 * `/array`: acknowledge at once (Slack allows 3 s; in HTTP mode the receiver's guard has already), then run the
 * pipeline and answer through response_url.
 * A delivery seen before (same trigger_id) is acknowledged and dropped.
 */
import type { App } from "@slack/bolt";
import { personActor } from "../../core/access/actors.js";
import type { Actor } from "../../core/context/pipeline-types.js";
import { toUserMessage } from "../../errors.js";
import { lazyChild } from "../../logger.js";
import { answerInTime, lateNotice } from "../answer-deadline.js";
import { runEffects } from "../effects.js";
import { type ListenerContext, responder } from "./context.js";
import { openFormFor } from "./forms.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function registerCommand(app: App, name: string, ctx: ListenerContext): void {
  app.command(name, async ({ ack, command, respond, context }) => {
    const label = ctx.commandLabel(command.text);
    if (!ctx.inflight.accepting) {
      const busy = {
        response_type: "ephemeral",
        text: "The bot is restarting. Try again in a minute.",
      } as const;
      // Acknowledged by the HTTP receiver's guard before the drain began: the ack is gone, response_url remains.
      if (context["ackedEarly"] === true) await respond(busy);
      else await ack(busy);
      ctx.metrics.commands.inc({ command: label, outcome: "rejected" });
      return;
    }
    await ack();
    // The command's work starts after the event loop's next I/O pass: commands that arrived alongside this one
    // are acknowledged first instead of waiting behind this one's parsing, array call set-up and rendering.
    await nextTurn();
    const requestId = command.trigger_id;
    const log = lazyChild(ctx.logger, {
      reqId: requestId,
      user: command.user_id,
      channel: command.channel_id,
      cmd: label,
    });
    if (!(await ctx.dedupe.firstTime(`command:${requestId}`))) {
      log.info("duplicate delivery of a command ignored");
      ctx.metrics.commands.inc({ command: label, outcome: "duplicate" });
      return;
    }
    // A change typed with nothing after it ("fs create") opens its form instead of an "invalid arguments".
    if (
      await openFormFor(ctx, command.text, command.trigger_id, command.channel_id, {
        userId: command.user_id,
        refuse: (text) => respond({ response_type: "ephemeral", replace_original: false, text }),
      }).catch(() => false)
    ) {
      ctx.metrics.commands.inc({ command: label, outcome: "form" });
      return;
    }
    // The signed payload's user is the actor; nothing in the command's text can name another.
    const actor: Actor = personActor(command.user_id, command.channel_id, command.user_name);
    const started = ctx.now();
    const respondVia = responder(respond);
    await ctx.inflight.track(async () => {
      let outcome = "ok";
      try {
        const deadline = ctx.pipeline.answerDeadlineMs;
        const effects = await answerInTime(
          ctx.pipeline.handleCommand({ text: command.text, actor, requestId }),
          deadline,
          async () => {
            await respondVia(lateNotice(deadline ?? 0));
          },
          (err) => log.warn({ err }, "could not send the late notice"),
        );
        const failed = await runEffects(
          effects,
          { actor, requestId, logger: log, respond: respondVia },
          ctx.effects,
        );
        if (failed > 0) outcome = "error";
      } catch (err) {
        outcome = "error";
        log.error({ err }, "command failed");
        await respondVia({
          response_type: "ephemeral",
          text: toUserMessage(err, requestId),
          blocks: [],
        }).catch((e: unknown) => log.warn({ err: e }, "could not report the failure"));
      }
      const ms = ctx.now() - started;
      ctx.metrics.commands.inc({ command: label, outcome });
      ctx.metrics.commandSeconds.observe({ command: label }, ms / 1000);
      log.debug({ outcome, ms }, "command finished");
    });
  });
}
