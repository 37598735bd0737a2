/**
 * Forms for changes (src/slack/form-modal.ts): `/array <change>` with nothing after it opens the form; its first
 * submit is a dry run shown in the modal, its second runs the line through the pipeline as the person who
 * submitted it, so the access policy, the gate and the audit are those of a typed command.
 */
import type { App, types } from "@slack/bolt";
import { formLine } from "../../core/forms.js";
import type { Actor } from "../../core/pipeline-types.js";
import { runEffects } from "../effects.js";
import {
  FORM_CALLBACK_ID,
  FORM_INPUT,
  fieldErrors,
  formView,
  previewView,
  readFormMeta,
  readFormValues,
  type SubmittedForm,
} from "../form-modal.js";
import type { ListenerContext } from "./context.js";

/** Opens the form when `text` is a changing command's path alone; false when it is not (the command runs). */
export async function openFormFor(
  ctx: ListenerContext,
  text: string,
  triggerId: string | undefined,
  channelId: string,
): Promise<boolean> {
  const form = ctx.pipeline.form?.(text, channelId);
  if (!form || !triggerId) return false;
  await ctx.client.call("views.open", { trigger_id: triggerId, view: formView(form, channelId) });
  return true;
}

export function registerForms(app: App, ctx: ListenerContext): void {
  // A menu that searches the array: names read as the person typing, through the pipeline and its policy.
  app.options<"block_suggestion">(
    { type: "block_suggestion", action_id: FORM_INPUT },
    async ({ ack, body }) => {
      const view =
        "view" in body
          ? (body.view as { private_metadata?: string; state?: SubmittedForm["state"] })
          : undefined;
      const meta = view ? readFormMeta(view) : undefined;
      const field = "block_id" in body ? String(body.block_id) : "";
      if (!meta || !ctx.pipeline.lookup) {
        await ack({ options: [] });
        return;
      }
      const array = view?.state?.values?.["array"]?.[FORM_INPUT]?.selected_option?.value ?? undefined;
      const names = await ctx.pipeline.lookup({
        actor: { userId: body.user.id, channelId: meta.channelId },
        path: meta.path,
        field,
        query: "value" in body ? String(body.value ?? "") : "",
        ...(array ? { array } : {}),
      });
      await ack({
        options: names.map((n) => ({
          text: { type: "plain_text", text: n.slice(0, 75) },
          value: n.slice(0, 150),
        })),
      });
    },
  );

  app.view(FORM_CALLBACK_ID, async ({ ack, body, view }) => {
    const meta = readFormMeta(view);
    const form = meta && ctx.pipeline.form?.(meta.path, meta.channelId);
    if (!meta || !form) {
      await ack();
      ctx.logger.warn({ user: body.user.id }, "form submission with unreadable metadata ignored");
      return;
    }
    const actor: Actor = { userId: body.user.id, channelId: meta.channelId };
    if (body.user.name) actor.displayName = body.user.name;
    const log = ctx.logger.child({ user: body.user.id, form: form.path });
    if (meta.line === undefined) {
      // First submit: the dry run of the line the form stands for, shown in the modal; nothing is kept.
      const line = formLine(form, readFormValues(form, view));
      const effects = await ctx.pipeline.handleCommand({ text: `${line} --dry-run`, actor });
      const reply = effects.find((e) => e.kind === "reply");
      const msg = reply?.kind === "reply" ? reply.message : undefined;
      if (msg === undefined || !msg.text.startsWith("Dry run:")) {
        await ack({ response_action: "errors", errors: fieldErrors(form, msg?.text ?? "Not accepted.") });
        return;
      }
      const preview = previewView(form, meta.channelId, line, msg) as unknown as types.ModalView;
      await ack({ response_action: "update", view: preview });
      return;
    }
    // Second submit: the line the preview showed, for real; the modal closes and the answer goes to the channel.
    await ack({ response_action: "clear" });
    const requestId = `form-${view.id}`;
    if (!(await ctx.dedupe.firstTime(`form:${view.id}`))) return;
    await ctx.inflight.track(async () => {
      try {
        const effects = await ctx.pipeline.handleCommand({ text: meta.line ?? "", actor, requestId });
        await runEffects(effects, { actor, requestId, logger: log }, ctx.effects);
      } catch (err) {
        log.error({ err }, "form submission failed");
      }
    });
  });
}
