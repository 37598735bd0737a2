/**
 * The chat port other parts of the bot (alerts) post through: paced, limit-safe, and unable to mention
 * anyone by accident (thread replies are escaped and sent with parse=none).
 */

import type { MessageRef } from "../core/context/pipeline-types.js";
import { escapeText, type Message } from "../core/presentation/message.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../ops/metrics.js";
import { toSlack } from "./blocks.js";
import type { FileUploader } from "./file-upload.js";
import type { PacedSlackClient } from "./paced-client.js";

/** A posted message: `channelId`/`ts` as in MessageRef, `channel` as Slack names it. */
export interface ChatRef extends MessageRef {
  channel: string;
}

export interface ChatPort {
  post(channel: string, message: Message): Promise<ChatRef>;
  update(ref: MessageRef, message: Message): Promise<void>;
  /** A plain-text reply under a message; never notifies anyone. */
  postInThread(ref: MessageRef, text: string): Promise<ChatRef>;
}

const NO_UNFURL = { unfurl_links: false, unfurl_media: false } as const;

export function createChatPort(deps: {
  client: PacedSlackClient;
  uploader: FileUploader;
  logger: Logger;
  metrics?: Metrics;
}): ChatPort {
  const { client, uploader, logger, metrics } = deps;

  async function counted<T>(kind: string, work: () => Promise<T>): Promise<T> {
    try {
      const out = await work();
      metrics?.alertPosts.inc({ kind, outcome: "ok" });
      return out;
    } catch (err) {
      metrics?.alertPosts.inc({ kind, outcome: "error" });
      throw err;
    }
  }

  async function attachFiles(ref: MessageRef, files: ReturnType<typeof toSlack>["files"]): Promise<void> {
    if (files.length === 0) return;
    try {
      await uploader.upload(files, { channelId: ref.channelId, threadTs: ref.ts });
    } catch (err) {
      logger.error({ err, channel: ref.channelId }, "could not attach files to a posted message");
    }
  }

  return {
    post: (channel, message) =>
      counted("post", async () => {
        const p = toSlack(message);
        const res = await client.call<{ ts?: string; channel?: string }>("chat.postMessage", {
          channel,
          text: p.text,
          blocks: p.blocks,
          ...NO_UNFURL,
        });
        const ref: ChatRef = {
          channel: res.channel ?? channel,
          channelId: res.channel ?? channel,
          ts: String(res.ts),
        };
        await attachFiles(ref, p.files);
        return ref;
      }),
    update: (ref, message) =>
      counted("update", async () => {
        const p = toSlack(message);
        await client.call("chat.update", {
          channel: ref.channelId,
          ts: ref.ts,
          text: p.text,
          blocks: p.blocks,
        });
        await attachFiles(ref, p.files);
      }),
    postInThread: (ref, text) =>
      counted("thread", async () => {
        const res = await client.call<{ ts?: string }>("chat.postMessage", {
          channel: ref.channelId,
          thread_ts: ref.ts,
          text: escapeText(text),
          parse: "none",
          link_names: false,
          ...NO_UNFURL,
        });
        return { channel: ref.channelId, channelId: ref.channelId, ts: String(res.ts) };
      }),
  };
}
