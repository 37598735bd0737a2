/**
 * Slack's external upload flow (files.upload is retired): files.getUploadURLExternal for each file, the
 * bytes POSTed to the URL Slack returns, then one files.completeUploadExternal that shares them all.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { type Attachment, isSpooled } from "../core/presentation/message.js";
import { removeSpooled } from "../core/presentation/spool.js";
import { InternalError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { OutgoingFile } from "./block-render.js";
import type { PacedSlackClient } from "./paced-client.js";

export interface UploadTarget {
  channelId: string;
  threadTs?: string;
  initialComment?: string;
}

export type FetchFn = (
  url: string,
  init: { method: string; body: Uint8Array | ReadableStream<Uint8Array>; duplex?: "half" },
) => Promise<{ status: number }>;

export interface FileUploader {
  upload(files: readonly OutgoingFile[], target: UploadTarget): Promise<string[]>;
}

const UPLOAD_ATTEMPTS = 3;

/** The bytes to send, as a fresh body per attempt: a spooled file is streamed from disk, never read whole. */
function bodyOf(content: Attachment["content"]): { length: number; body: () => FetchBody } {
  if (isSpooled(content)) {
    return {
      length: content.bytes,
      body: () => Readable.toWeb(createReadStream(content.path)) as ReadableStream<Uint8Array>,
    };
  }
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { length: bytes.byteLength, body: () => bytes };
}

type FetchBody = Uint8Array | ReadableStream<Uint8Array>;

export function createFileUploader(deps: {
  client: PacedSlackClient;
  fetch?: FetchFn;
  logger: Logger;
}): FileUploader {
  const doFetch: FetchFn = deps.fetch ?? ((url, init) => fetch(url, init));

  async function putBytes(url: string, body: () => FetchBody, filename: string): Promise<void> {
    let lastStatus = 0;
    for (let attempt = 1; attempt <= UPLOAD_ATTEMPTS; attempt++) {
      try {
        const b = body();
        const res = await doFetch(url, {
          method: "POST",
          body: b,
          ...(b instanceof Uint8Array ? {} : { duplex: "half" }),
        });
        if (res.status === 200) return;
        lastStatus = res.status;
        if (res.status < 500) break;
      } catch (err) {
        deps.logger.warn({ err, filename, attempt }, "file upload POST failed");
      }
    }
    throw new InternalError("SLACK_FILE_UPLOAD_FAILED", `uploading ${filename} failed`, {
      details: { status: lastStatus },
    });
  }

  return {
    async upload(files, target) {
      try {
        return await uploadAll(files, target);
      } finally {
        // Spooled files are temporary: gone once sent, or once sending failed.
        for (const f of files) if (isSpooled(f.content)) await removeSpooled(f.content);
      }
    },
  };

  async function uploadAll(files: readonly OutgoingFile[], target: UploadTarget): Promise<string[]> {
    if (files.length === 0) return [];
    const uploaded: { id: string; title: string }[] = [];
    for (const f of files) {
      const { length, body } = bodyOf(f.content);
      const args: Record<string, unknown> = { filename: f.filename, length };
      if (f.altText !== undefined) args["alt_text"] = f.altText.slice(0, 1000);
      const res = await deps.client.call<{ upload_url?: string; file_id?: string }>(
        "files.getUploadURLExternal",
        args,
      );
      if (typeof res.upload_url !== "string" || typeof res.file_id !== "string") {
        throw new InternalError(
          "SLACK_FILE_UPLOAD_FAILED",
          "files.getUploadURLExternal returned no upload URL",
        );
      }
      await putBytes(res.upload_url, body, f.filename);
      uploaded.push({ id: res.file_id, title: f.title });
    }
    const complete: Record<string, unknown> = { files: uploaded, channel_id: target.channelId };
    if (target.threadTs !== undefined) complete["thread_ts"] = target.threadTs;
    if (target.initialComment !== undefined) complete["initial_comment"] = target.initialComment;
    await deps.client.call("files.completeUploadExternal", complete);
    deps.logger.info({ channel: target.channelId, files: files.map((f) => f.filename) }, "files uploaded");
    return uploaded.map((u) => u.id);
  }
}
