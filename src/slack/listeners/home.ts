/**
 * App Home's buttons: "Alerts", "Space forecast" and "Links behind RPO" run that read on the array as the person
 * who clicked, through the pipeline (their role, the access policy, their limits), and show the answer in a
 * modal; "Open" is a link to the approval's channel, so its click needs only an acknowledgement.
 */
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { personActor } from "../../core/access/actors.js";
import type { Actor } from "../../core/context/pipeline-types.js";
import type { Message } from "../../core/presentation/message.js";
import { toSlack } from "../blocks.js";
import { HOME_COMMANDS, HOME_OPEN_ACTION, HOME_RUN_ACTION, readHomeButton } from "../home.js";
import { LIMITS, truncate } from "../limits.js";
import type { ListenerContext } from "./context.js";

const plain = (text: string) => ({ type: "plain_text", text, emoji: true });
/** A button's action id, with the suffix the renderer adds when a view holds it more than once. */
const actionId = (id: string) => new RegExp(`^${id.replace(".", "\\.")}(?:~\\d+)?$`);

function answerModal(title: string, msg: Message): Record<string, unknown> {
  return {
    type: "modal",
    title: plain(truncate(title, LIMITS.modalTitle)),
    close: plain("Close"),
    blocks: toSlack(msg, "modal").blocks.filter((b) => b.type !== "actions"),
  };
}

export function registerHome(app: App, ctx: ListenerContext): void {
  app.action<BlockAction<ButtonAction>>(
    { type: "block_actions", action_id: actionId(HOME_OPEN_ACTION) },
    async ({ ack }) => {
      await ack();
    },
  );

  app.action<BlockAction<ButtonAction>>(
    { type: "block_actions", action_id: actionId(HOME_RUN_ACTION) },
    async ({ ack, body, action }) => {
      await ack();
      const pick = readHomeButton(action.value);
      if (!pick || !(await ctx.dedupe.firstTime(`home:${body.trigger_id}`))) return;
      const title = HOME_COMMANDS[pick.command].label;
      const line = HOME_COMMANDS[pick.command].line(pick.array);
      const log = ctx.logger.child({ user: body.user.id, home: pick.command, array: pick.array });
      // The trigger lasts 3 seconds and an array may take longer: open at once, then show the answer.
      const waiting: Message = { text: "Reading…", blocks: [{ type: "code", text: `/array ${line}` }] };
      const opened = await ctx.client.call<{ view?: { id?: string } }>("views.open", {
        trigger_id: body.trigger_id,
        view: answerModal(title, waiting),
      });
      const viewId = opened.view?.id;
      // App Home is no channel: the read runs as the person, on the array the button names.
      const actor: Actor = personActor(body.user.id, "");
      await ctx.inflight.track(async () => {
        try {
          const effects = await ctx.pipeline.handleCommand({
            text: line,
            actor,
            requestId: `home-${body.trigger_id}`,
          });
          const reply = effects.find((e) => e.kind === "reply");
          const msg =
            reply?.kind === "reply" ? await (reply.later ?? Promise.resolve(reply.message)) : undefined;
          if (msg && viewId)
            await ctx.client.call("views.update", { view_id: viewId, view: answerModal(title, msg) });
        } catch (err) {
          log.error({ err }, "home button failed");
        }
      });
    },
  );
}
