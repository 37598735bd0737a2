import type { MessageRef } from "../../core/context/pipeline-types.js";
import type { Message } from "../../core/presentation/message.js";
import type { AlertChat } from "../types.js";

export interface RecordedMessage {
  channel: string;
  ts: string;
  message: Message;
  /** How many times it was updated. */
  edits: number;
  thread: string[];
}

/**
 * A chat port that keeps messages in memory, for the replay and the benchmark: they measure the engine,
 * not Slack's rate limits (the engine-with-Slack tests use the fake Slack Web API).
 */
export class RecordingChat implements AlertChat {
  readonly messages = new Map<string, RecordedMessage>();
  posts = 0;
  updates = 0;
  /** Lines in threads (a message may carry several, notifier.ts threadPosts). */
  threadLines = 0;
  threadPosts = 0;
  private seq = 0;

  async post(channel: string, message: Message): Promise<MessageRef> {
    this.seq += 1;
    const ts = `${this.seq}.000000`;
    this.messages.set(`${channel}/${ts}`, { channel, ts, message, edits: 0, thread: [] });
    this.posts += 1;
    return { channelId: channel, ts };
  }

  async update(ref: MessageRef, message: Message): Promise<void> {
    const m = this.messages.get(`${ref.channelId}/${ref.ts}`);
    if (!m) throw Object.assign(new Error("message_not_found"), { data: { error: "message_not_found" } });
    m.message = message;
    m.edits += 1;
    this.updates += 1;
  }

  async postInThread(ref: MessageRef, text: string): Promise<void> {
    const m = this.messages.get(`${ref.channelId}/${ref.ts}`);
    if (!m) throw Object.assign(new Error("message_not_found"), { data: { error: "message_not_found" } });
    m.thread.push(text);
    this.threadLines += text.split("\n").length;
    this.threadPosts += 1;
  }

  get(ref: MessageRef): RecordedMessage | undefined {
    return this.messages.get(`${ref.channelId}/${ref.ts}`);
  }

  topLevel(channel: string): RecordedMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel);
  }
}
