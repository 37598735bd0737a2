/**
 * Carries out the pipeline's effects in Slack. Replies go through the command's response_url (works in
 * DMs and private channels the bot is not in) and fall back to the Web API when it has expired; posts and
 * updates use the Web API; prompts (a typed name, a secret) open a modal. Files go to the channel for
 * in-channel answers and to the requester's DM with the bot for ephemeral ones, so a private lookup stays
 * private.
 */

import type { Actor, Effect, MessageRef, Pipeline } from "../core/context/pipeline-types.js";
import { type Message, Rich, rich } from "../core/presentation/message.js";
import type { Logger } from "../logger.js";
import { type SlackBlock, type TableStyle, toSlack } from "./blocks.js";
import type { DialogResponders } from "./dialog-responders.js";
import type { FileUploader } from "./file-upload.js";
import { LIMITS } from "./limits.js";
import { type PacedSlackClient, slackErrorCode } from "./paced-client.js";
import { closedDialogView, promptView } from "./prompt-modal.js";
import { secretView } from "./secret-modal.js";

/** Bolt's respond(), narrowed to what we send. */
export type Responder = (msg: {
  response_type?: "ephemeral" | "in_channel";
  replace_original?: boolean;
  text: string;
  blocks: SlackBlock[];
}) => Promise<unknown>;

export interface EffectScope {
  /**
   * Whom private answers go to, and where: the person who acted (for a workflow step, the person Slack vouched
   * for; for timers, nobody). Only delivery: who acted was decided before the pipeline ran.
   */
  actor: Pick<Actor, "userId" | "channelId">;
  requestId: string;
  logger: Logger;
  respond?: Responder;
  /** The message a click came from; ephemeral ones can only be replaced through response_url. */
  source?: { ref: MessageRef; ephemeral: boolean };
  triggerId?: string;
}

export interface EffectDeps {
  client: PacedSlackClient;
  uploader: FileUploader;
  pipeline: Pipeline;
  /**
   * The response_url of the click that opened a typed-name dialog, by pending id and person, so the submission
   * replaces the card through it as the click would have (in memory only: a submission another replica takes
   * updates the card with chat.update).
   */
  dialogResponders?: DialogResponders;
  /** How lists show (the `slack.tables` settings); Slack's data table when absent. */
  tables?: TableStyle;
}

const CHANNEL_ACCESS_ERRORS = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

function withNote(blocks: SlackBlock[], note: string): SlackBlock[] {
  if (blocks.length >= LIMITS.blocksPerMessage) return blocks;
  return [...blocks, { type: "context", elements: [{ type: "mrkdwn", text: note }] }];
}

async function dmChannel(deps: EffectDeps, userId: string): Promise<string> {
  const res = await deps.client.call<{ channel?: { id?: string } }>("conversations.open", { users: userId });
  const id = res.channel?.id;
  if (typeof id !== "string") throw new Error("conversations.open returned no channel");
  return id;
}

/**
 * A secret goes to the requester alone: through response_url, else as an ephemeral message, else in their DM
 * with the bot. Never in the channel, never as a file; failures are logged without the error object, whose
 * request body would carry the secret.
 */
async function sendSecret(msg: Message, scope: EffectScope, deps: EffectDeps): Promise<void> {
  const p = toSlack({ ...msg, attachments: [] }, "message", deps.tables);
  const { channelId, userId } = scope.actor;
  const tries: [string, () => Promise<unknown>][] = [
    ...(scope.respond
      ? [
          [
            "response_url",
            () =>
              scope.respond?.({
                response_type: "ephemeral",
                replace_original: false,
                text: p.text,
                blocks: p.blocks,
              }),
          ] as [string, () => Promise<unknown>],
        ]
      : []),
    [
      "chat.postEphemeral",
      () =>
        deps.client.call("chat.postEphemeral", {
          channel: channelId,
          user: userId,
          text: p.text,
          blocks: p.blocks,
        }),
    ],
    [
      "direct message",
      async () =>
        deps.client.call("chat.postMessage", {
          channel: await dmChannel(deps, userId),
          text: p.text,
          blocks: p.blocks,
        }),
    ],
  ];
  for (const [via, send] of tries) {
    try {
      await send();
      return;
    } catch (err) {
      scope.logger.warn(
        { via, slackError: slackErrorCode(err) ?? "failed" },
        "could not deliver a private answer this way",
      );
    }
  }
  throw new Error("a private answer could not be delivered");
}

async function sendReply(msg: Message, scope: EffectScope, deps: EffectDeps): Promise<void> {
  if (msg.secret) return sendSecret(msg, scope, deps);
  const visibility = msg.visibility ?? "ephemeral";
  const p = toSlack(msg, "message", deps.tables);
  const blocks =
    p.files.length > 0 && visibility === "ephemeral"
      ? withNote(p.blocks, "The attached files are in your direct messages with the bot.")
      : p.blocks;
  const { channelId, userId } = scope.actor;
  let delivered = false;
  if (scope.respond !== undefined) {
    try {
      await scope.respond({ response_type: visibility, replace_original: false, text: p.text, blocks });
      delivered = true;
    } catch (err) {
      scope.logger.warn({ err }, "response_url failed, answering through the Web API");
    }
  }
  if (!delivered) {
    if (visibility === "ephemeral") {
      await deps.client.call("chat.postEphemeral", {
        channel: channelId,
        user: userId,
        text: p.text,
        blocks,
      });
    } else {
      await deps.client.call("chat.postMessage", { channel: channelId, text: p.text, blocks });
    }
  }
  if (p.files.length > 0) {
    try {
      const target = visibility === "in_channel" ? channelId : await dmChannel(deps, userId);
      await deps.uploader.upload(p.files, { channelId: target });
    } catch (err) {
      const code = slackErrorCode(err) ?? "upload failed";
      scope.logger.warn({ err, slackError: code }, "could not attach files to an answer");
      const names = p.files.map((f) => f.filename).join(", ");
      const hint = CHANNEL_ACCESS_ERRORS.has(code)
        ? " Invite the bot to this channel to get files here."
        : "";
      await sendReply({ text: `I could not attach ${names} (${code}).${hint}`, blocks: [] }, scope, deps);
    }
  }
}

/**
 * A fan-out answered past its deadline: the full answer replaces the first one through the response URL (the
 * only way to edit an ephemeral message); without one, it follows as a new answer.
 */
async function replaceLater(later: Promise<Message>, scope: EffectScope, deps: EffectDeps): Promise<void> {
  try {
    const msg = await later;
    if (scope.respond !== undefined) {
      const p = toSlack(msg, "message", deps.tables);
      await scope.respond({
        response_type: msg.visibility ?? "ephemeral",
        replace_original: true,
        text: p.text,
        blocks: p.blocks,
      });
      return;
    }
    await sendReply(msg, scope, deps);
  } catch (err) {
    scope.logger.warn({ err }, "could not edit in the late answers of a fan-out");
  }
}

async function sendPost(
  effect: Extract<Effect, { kind: "post" }>,
  scope: EffectScope,
  deps: EffectDeps,
): Promise<void> {
  const p = toSlack(effect.message, "message", deps.tables);
  let ts: string;
  try {
    const res = await deps.client.call<{ ts?: string; channel?: string }>("chat.postMessage", {
      channel: effect.channelId,
      text: p.text,
      blocks: p.blocks,
      unfurl_links: false,
    });
    ts = String(res.ts);
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === undefined || !CHANNEL_ACCESS_ERRORS.has(code)) throw err;
    scope.logger.warn({ channel: effect.channelId, slackError: code }, "cannot post in channel");
    const where = /^[CG][A-Z0-9]+$/.test(effect.channelId)
      ? new Rich(`<#${effect.channelId}>`)
      : effect.channelId;
    const text = rich`I could not post in ${where} (${code}). Invite the bot there with /invite, then try again.`;
    await sendReply(
      { text: `I could not post in a channel (${code}).`, blocks: [{ type: "section", text }] },
      scope,
      deps,
    );
    return;
  }
  const ref = { channelId: effect.channelId, ts };
  if (effect.trackPending !== undefined) await deps.pipeline.attachMessage(effect.trackPending, ref);
  if (p.files.length > 0) await deps.uploader.upload(p.files, { channelId: ref.channelId, threadTs: ts });
}

async function sendUpdate(
  ref: MessageRef,
  msg: Message,
  scope: EffectScope,
  deps: EffectDeps,
): Promise<void> {
  const p = toSlack(msg, "message", deps.tables);
  const src = scope.source;
  const clicked = src !== undefined && src.ref.ts === ref.ts && src.ref.channelId === ref.channelId;
  // The card clicked is replaced through the click's response_url: no Web API rate limit (chat.update is
  // Tier 3, and a 429 there would hold the answer to an Approve for its Retry-After). An in-channel card falls
  // back to chat.update if that fails; other copies of the card (the approvals channel's) use chat.update.
  if (clicked && !src.ephemeral && scope.respond) {
    try {
      await scope.respond({ replace_original: true, text: p.text, blocks: p.blocks });
      return;
    } catch (err) {
      scope.logger.warn({ err }, "response_url failed, updating the card through the Web API");
    }
  }
  if (clicked && src.ephemeral) {
    if (scope.respond) {
      await scope.respond({ replace_original: true, text: p.text, blocks: p.blocks });
      return;
    }
    // Only response_url edits an ephemeral message, and a modal's submission (a secret) has none: what would
    // have replaced the card ("Done", or why it did not run) comes as a new private answer instead.
    return sendReply({ ...msg, visibility: "ephemeral" }, scope, deps);
  }
  await deps.client.call("chat.update", {
    channel: ref.channelId,
    ts: ref.ts,
    text: p.text,
    blocks: p.blocks,
  });
}

async function runOne(effect: Effect, scope: EffectScope, deps: EffectDeps): Promise<void> {
  switch (effect.kind) {
    case "reply":
      await sendReply(effect.message, scope, deps);
      if (effect.later) void replaceLater(effect.later, scope, deps);
      return;
    case "post":
      return sendPost(effect, scope, deps);
    case "update":
      return sendUpdate(effect.ref, effect.message, scope, deps);
    case "prompt":
    case "secret": {
      if (scope.triggerId === undefined) {
        scope.logger.warn({ pendingId: effect.pendingId }, "prompt without a trigger id");
        return sendReply(
          { text: "This step needs a dialog; click the button again.", blocks: [] },
          scope,
          deps,
        );
      }
      const view =
        effect.kind === "prompt"
          ? promptView(effect, scope.actor.channelId, scope.source?.ref)
          : secretView(effect, scope.actor.channelId, scope.source?.ref);
      // Kept before the dialog opens: its submission can arrive before views.open's own answer does.
      if (effect.kind === "prompt" && scope.respond)
        deps.dialogResponders?.keep(effect.pendingId, scope.actor.userId, scope.respond);
      const opened = deps.client.call<{ view?: { id?: string } }>("views.open", {
        trigger_id: scope.triggerId,
        view,
      });
      // The check run while the dialog opened follows it, whether or not it opened: a request voided there still
      // has its card updated.
      // Never left to reject: an unhandled rejection would end the process.
      if (effect.recheck)
        void afterDialog(effect, opened, scope, deps).catch((err: unknown) =>
          scope.logger.error({ err, pendingId: effect.pendingId }, "dialog check's effects failed"),
        );
      await opened;
      return;
    }
  }
}

/**
 * A dialog's check, once settled: when it voided the request (or failed), the open dialog says so instead of
 * asking for the name, and the card and the clicker are told as the click would have told them.
 */
async function afterDialog(
  effect: Extract<Effect, { kind: "prompt" | "secret" }>,
  opened: Promise<{ view?: { id?: string } }>,
  scope: EffectScope,
  deps: EffectDeps,
): Promise<void> {
  const more = (await effect.recheck) ?? [];
  if (more.length === 0) return;
  const viewId = await opened.then(
    (r) => r.view?.id,
    () => undefined,
  );
  const said = more.find((e) => "message" in e);
  const why: Message =
    said && "message" in said
      ? said.message
      : {
          text: "This request can no longer happen; nothing was done.",
          blocks: [{ type: "section", text: rich`This request can no longer happen; nothing was done.` }],
        };
  const blocks = toSlack({ ...why, attachments: [], forms: [] }, "modal", deps.tables).blocks;
  if (viewId !== undefined)
    await deps.client
      .call("views.update", { view_id: viewId, view: closedDialogView(effect.title, blocks) })
      // Submitted or closed already: its submission is told the same.
      .catch((err: unknown) =>
        scope.logger.info({ slackError: slackErrorCode(err) }, "dialog not updated after its check"),
      );
  await runEffects(more, scope, deps);
}

/** Runs effects in order; one failing is logged and does not stop the rest. Returns how many failed. */
export async function runEffects(
  effects: readonly Effect[],
  scope: EffectScope,
  deps: EffectDeps,
): Promise<number> {
  let failed = 0;
  for (const effect of effects) {
    try {
      await runOne(effect, scope, deps);
    } catch (err) {
      failed++;
      scope.logger.error({ err, effect: effect.kind, slackError: slackErrorCode(err) }, "effect failed");
    }
  }
  return failed;
}
