/**
 * The modal behind a "secret" effect: the requester types the secrets a command needs (an access key's secret,
 * a password) into a dialog instead of a message, because Slack keeps every message in the channel's history.
 * One plain_text_input per secret. The view carries only where the answer goes back (private_metadata); the
 * typed values come back once, in the view_submission, and go straight to the pipeline in memory.
 */
import type { Effect, MessageRef } from "../core/context/pipeline-types.js";
import { LIMITS, truncate } from "./limits.js";
import {
  confirmModal,
  type PromptOrigin,
  type PromptView,
  readOrigin,
  type SubmittedView,
} from "./prompt-modal.js";

export const SECRET_CALLBACK_ID = "array_secret";
export const SECRET_INPUT_ID = "secret";
const BLOCK_PREFIX = "secret.";

export function secretView(
  effect: Extract<Effect, { kind: "secret" }>,
  channelId: string,
  ref?: MessageRef,
): PromptView {
  return confirmModal(SECRET_CALLBACK_ID, effect, channelId, ref, [
    {
      type: "context",
      elements: [
        {
          type: "mrkdwn",
          text: "Only you see what you type here. It is used for this one request and kept nowhere: not in the channel, the logs or the audit trail.",
        },
      ],
    },
    ...effect.fields.map((f) => ({
      type: "input",
      block_id: `${BLOCK_PREFIX}${f.key}`,
      label: { type: "plain_text", text: truncate(f.label, LIMITS.inputLabel) },
      // A file (a keytab) is pasted as base64: a modal's text box holds 3,000 characters, a keytab of ~20 keys.
      ...(f.file
        ? { hint: { type: "plain_text", text: "The file as base64: paste what `base64 -w0 <file>` prints." } }
        : {}),
      element: {
        type: "plain_text_input",
        action_id: SECRET_INPUT_ID,
        max_length: 3000,
        ...(f.multiline ? { multiline: true } : {}),
      },
    })),
  ]);
}

export interface SecretSubmission extends PromptOrigin {
  secrets: Record<string, string>;
  /** Block ids of inputs left empty, for Slack's inline errors. */
  empty: string[];
}

/** The submission's origin and secrets, or undefined when the metadata is not ours. */
export function readSecretSubmission(view: SubmittedView): SecretSubmission | undefined {
  const origin = readOrigin(view.private_metadata);
  if (origin === undefined) return undefined;
  const secrets: Record<string, string> = {};
  const empty: string[] = [];
  for (const [blockId, inputs] of Object.entries(view.state?.values ?? {})) {
    if (!blockId.startsWith(BLOCK_PREFIX)) continue;
    const value = inputs?.[SECRET_INPUT_ID]?.value ?? "";
    if (value.trim() === "") empty.push(blockId);
    else secrets[blockId.slice(BLOCK_PREFIX.length)] = value;
  }
  return { ...origin, secrets, empty };
}
