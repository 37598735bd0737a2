/**
 * The modal behind a "prompt" effect: the approver types the object's name before an eradication counts.
 * What the submission must carry back (pending id, action, where the click came from) rides in
 * private_metadata and is validated again when it returns.
 */
import { z } from "zod";
import type { Effect, MessageRef } from "../core/context/pipeline-types.js";
import type { SlackBlock } from "./block-render.js";
import { LIMITS, truncate } from "./limits.js";

export const PROMPT_CALLBACK_ID = "array_prompt";
export const PROMPT_BLOCK_ID = "confirmation";
export const PROMPT_INPUT_ID = "typed_text";

const metadataSchema = z.object({
  p: z.string().min(1).max(255),
  a: z.string().min(1).max(255),
  c: z.string().min(1).max(64),
  t: z.string().max(64).optional(),
});

export interface PromptOrigin {
  pendingId: string;
  actionId: string;
  channelId: string;
  ref?: MessageRef;
}

export interface PromptView {
  type: "modal";
  callback_id: string;
  private_metadata: string;
  title: { type: "plain_text"; text: string };
  submit: { type: "plain_text"; text: string };
  close: { type: "plain_text"; text: string };
  blocks: SlackBlock[];
}

/** Where a submission must go back to, as private_metadata (never user text, never a secret). */
export function originMetadata(
  pendingId: string,
  actionId: string,
  channelId: string,
  ref?: MessageRef,
): string {
  const meta: z.input<typeof metadataSchema> = { p: pendingId, a: actionId, c: channelId };
  if (ref !== undefined) meta.t = ref.ts;
  return JSON.stringify(meta);
}

/** The origin a submission carries back, or undefined when the metadata is not ours. */
export function readOrigin(privateMetadata: string | undefined): PromptOrigin | undefined {
  let meta: z.output<typeof metadataSchema>;
  try {
    const parsed = metadataSchema.safeParse(JSON.parse(privateMetadata ?? ""));
    if (!parsed.success) return undefined;
    meta = parsed.data;
  } catch {
    return undefined;
  }
  const origin: PromptOrigin = { pendingId: meta.p, actionId: meta.a, channelId: meta.c };
  if (meta.t !== undefined) origin.ref = { channelId: meta.c, ts: meta.t };
  return origin;
}

/** A Confirm/Cancel modal that answers a pending request (the prompt and secret dialogs differ only in blocks). */
export function confirmModal(
  callbackId: string,
  effect: { pendingId: string; actionId: string; title: string },
  channelId: string,
  ref: MessageRef | undefined,
  blocks: SlackBlock[],
): PromptView {
  return {
    type: "modal",
    callback_id: callbackId,
    private_metadata: originMetadata(effect.pendingId, effect.actionId, channelId, ref),
    title: { type: "plain_text", text: truncate(effect.title, LIMITS.modalTitle) },
    submit: { type: "plain_text", text: "Confirm" },
    close: { type: "plain_text", text: "Cancel" },
    blocks,
  };
}

export function promptView(
  effect: Extract<Effect, { kind: "prompt" }>,
  channelId: string,
  ref?: MessageRef,
): PromptView {
  return confirmModal(PROMPT_CALLBACK_ID, effect, channelId, ref, [
    {
      type: "input",
      block_id: PROMPT_BLOCK_ID,
      label: { type: "plain_text", text: truncate(effect.label, LIMITS.inputLabel) },
      element: { type: "plain_text_input", action_id: PROMPT_INPUT_ID, max_length: 255 },
    },
  ]);
}

export interface SubmittedView {
  private_metadata?: string;
  state?: { values?: Record<string, Record<string, { value?: string | null } | undefined> | undefined> };
}

/** The submission's origin and typed text, or undefined when the metadata is not ours. */
export function readPromptSubmission(
  view: SubmittedView,
): (PromptOrigin & { typedText: string }) | undefined {
  const origin = readOrigin(view.private_metadata);
  if (origin === undefined) return undefined;
  const typed = view.state?.values?.[PROMPT_BLOCK_ID]?.[PROMPT_INPUT_ID]?.value ?? "";
  return { ...origin, typedText: typed };
}

/**
 * What an open dialog becomes when its request turned out not to be able to happen (the check run while it
 * opened): the blocks that say why (the request's closed card, as drawn for a view), and only a Close button.
 */
export function closedDialogView(title: string, blocks: SlackBlock[]) {
  return {
    type: "modal" as const,
    title: { type: "plain_text" as const, text: truncate(title, LIMITS.modalTitle) },
    close: { type: "plain_text" as const, text: "Close" },
    blocks,
  };
}
