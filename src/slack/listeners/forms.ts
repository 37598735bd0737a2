/**
 * Forms for changes (src/slack/form-modal.ts): `/array <change>` with nothing after it opens the form; its first
 * submit is a dry run shown in the modal, its second runs the line through the pipeline as the person who
 * submitted it, so the access policy, the gate and the audit are those of a typed command.
 */
import type { App, BlockAction, ButtonAction, RespondFn, StaticSelectAction, types } from "@slack/bolt";
import { personActor } from "../../core/access/actors.js";
import { formLine } from "../../core/catalogue/forms.js";
import type { Actor } from "../../core/context/pipeline-types.js";
import { tokenize } from "../../core/words/tokenize.js";
import { isUserFacing, toUserMessage } from "../../errors.js";
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
import {
  FORM_CHANGE_ACTION,
  FORM_CREATE_ACTION,
  type OfferTarget,
  readOfferTarget,
} from "../form-offer-render.js";
import type { ListenerContext } from "./context.js";

/** True when `line` starts with the words of the form's command path and is read without error. */
function lineIsOf(line: string, path: string): boolean {
  try {
    const words = tokenize(line);
    const want = path.split(" ");
    return want.every((w, i) => words[i]?.text === w && words[i]?.quoted === false);
  } catch {
    return false;
  }
}

/**
 * Opens the form when `text` is a changing command's path alone; false when it is not (the command runs). With
 * the person (`who`), a role on the channel's array that does not allow the change gets no form but the refusal,
 * as a list's Create offer does (true: answered). Where there is no one array to check (no default array), the
 * preview checks the role instead.
 */
export async function openFormFor(
  ctx: ListenerContext,
  text: string,
  triggerId: string | undefined,
  channelId: string,
  who?: { userId: string; refuse: (text: string) => Promise<unknown> },
): Promise<boolean> {
  const form = ctx.pipeline.form?.(text, channelId);
  if (!form || !triggerId) return false;
  if (who !== undefined && ctx.pipeline.openForm) {
    const refusal = await ctx.pipeline
      .openForm({ actor: personActor(who.userId, channelId), path: form.path })
      .then(() => undefined)
      .catch((err: unknown) => (isUserFacing(err) && err.code === "FORBIDDEN" ? err : undefined));
    if (refusal !== undefined) {
      ctx.logger.info({ user: who.userId, form: form.path }, "form not opened: role");
      await who.refuse(toUserMessage(refusal, triggerId));
      return true;
    }
  }
  await ctx.client.call("views.open", { trigger_id: triggerId, view: formView(form, channelId) });
  return true;
}

/**
 * A list's Create button or Change menu: the form of that change on the list's array, opened only when the
 * person's role there allows it (the pipeline checks, as for a typed command), a Change prefilled with `name`.
 */
async function openOffered(
  ctx: ListenerContext,
  body: BlockAction,
  target: OfferTarget | undefined,
  name: string | undefined,
  respond: RespondFn,
): Promise<void> {
  const container = body.container as { channel_id?: string };
  const channelId = body.channel?.id ?? container.channel_id ?? "";
  if (!target || !ctx.pipeline.openForm) return;
  const actor: Actor = personActor(body.user.id, channelId);
  try {
    const form = await ctx.pipeline.openForm({ actor, ...target, ...(name ? { name } : {}) });
    await ctx.client.call("views.open", { trigger_id: body.trigger_id, view: formView(form, channelId) });
  } catch (err) {
    ctx.logger.info({ err, user: body.user.id, form: target.path }, "form offer not opened");
    await respond({
      response_type: "ephemeral",
      replace_original: false,
      text: toUserMessage(err, body.trigger_id),
    });
  }
}

export function registerForms(app: App, ctx: ListenerContext): void {
  app.action<BlockAction<ButtonAction>>(
    { type: "block_actions", action_id: FORM_CREATE_ACTION },
    async ({ ack, body, action, respond }) => {
      await ack();
      await openOffered(ctx, body, readOfferTarget(action.value), undefined, respond);
    },
  );
  app.action<BlockAction<StaticSelectAction>>(
    { type: "block_actions", action_id: FORM_CHANGE_ACTION },
    async ({ ack, body, action, respond }) => {
      await ack();
      const name = action.selected_option?.value;
      await openOffered(ctx, body, readOfferTarget(action.block_id), name, respond);
    },
  );

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
        actor: personActor(body.user.id, meta.channelId),
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
    const actor: Actor = personActor(body.user.id, meta.channelId, body.user.name);
    const log = ctx.logger.child({ user: body.user.id, form: form.path });
    if (meta.line === undefined) {
      // First submit: the dry run of the line the form stands for, shown in the modal; nothing is kept.
      let line: string;
      const values = readFormValues(form, view);
      try {
        line = formLine(form, values);
      } catch (err) {
        // A value no quoting can carry (wordOf) is refused beside its box; nothing runs.
        if (!isUserFacing(err)) throw err;
        await ack({ response_action: "errors", errors: fieldErrors(form, err.message) });
        return;
      }
      const effects = await ctx.pipeline.handleCommand({ text: `${line} --dry-run`, actor, built: true });
      const reply = effects.find((e) => e.kind === "reply");
      const msg = reply?.kind === "reply" ? reply.message : undefined;
      if (msg === undefined || !msg.text.startsWith("Dry run:")) {
        await ack({
          response_action: "errors",
          errors: fieldErrors(form, msg?.text ?? "Not accepted.", values),
        });
        return;
      }
      const preview = previewView(form, meta.channelId, line, msg) as unknown as types.ModalView;
      await ack({ response_action: "update", view: preview });
      return;
    }
    // Second submit: the line the preview showed, for real; the modal closes and the answer goes to the channel.
    // The line must be the form's own command: a view whose metadata pairs one form with another command's line
    // (a replayed or altered view) runs nothing.
    if (!lineIsOf(meta.line, form.path)) {
      log.warn("form submission whose line is not its form's command ignored");
      await ack({
        response_action: "errors",
        errors: fieldErrors(form, "This form no longer matches its command; close it and open it again."),
      });
      return;
    }
    await ack({ response_action: "clear" });
    const requestId = `form-${view.id}`;
    if (!(await ctx.dedupe.firstTime(`form:${view.id}`))) return;
    await ctx.inflight.track(async () => {
      try {
        const effects = await ctx.pipeline.handleCommand({
          text: meta.line ?? "",
          actor,
          requestId,
          built: true,
        });
        await runEffects(effects, { actor, requestId, logger: log }, ctx.effects);
      } catch (err) {
        log.error({ err }, "form submission failed");
      }
    });
  });
}
