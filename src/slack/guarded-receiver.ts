/**
 * A guard in front of Bolt's HTTP receiver. Bolt reads `body.ssl_check` from whatever the request parsed to,
 * so a signed body whose `payload` is `null` (or a JSON body that is not an object) throws inside a promise
 * nobody awaits: the request is never answered and the process gets an unhandled rejection. The guard reads
 * the body first (with the same size limit), answers 400 to anything not shaped like a Slack delivery, and hands
 * the buffered request on; Bolt then uses the buffered body as it is (`rawBody`) and verifies the signature.
 * It also refuses requests dated more than 5 minutes ahead, which Bolt's staleness check lets through: a
 * signed request must not stay replayable for longer than Slack's five-minute window.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQs } from "node:querystring";
import type { HTTPReceiver } from "@slack/bolt";
import type { Logger } from "../logger.js";

/** Slack's own payloads are far smaller; Bolt's default is 4 MB. */
export const SLACK_BODY_LIMIT = 1024 * 1024;

type Buffered = IncomingMessage & { rawBody?: Buffer };

function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * True for the shapes Slack sends: a slash command or ssl_check form, or a JSON object with a string `type`
 * (interactivity payloads and Events API envelopes). Anything else Bolt would either crash on or hold for
 * 3 seconds before answering 404.
 */
export function isSlackShaped(raw: string, contentType: string | undefined): boolean {
  try {
    let value: unknown;
    if (contentType === "application/x-www-form-urlencoded") {
      const form = parseQs(raw);
      if (typeof form["payload"] !== "string") {
        return typeof form["command"] === "string" || form["ssl_check"] === "1";
      }
      value = JSON.parse(form["payload"]);
    } else {
      value = JSON.parse(raw);
    }
    return (
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === "string"
    );
  } catch {
    return false;
  }
}

/** Bolt refuses requests signed more than 5 minutes ago, but not ones dated in the future. */
const MAX_SKEW_SEC = 5 * 60;

/** True when the request claims a time more than 5 minutes ahead of ours: a replay kept for later. */
export function isFutureDated(header: string | string[] | undefined, nowMs: number): boolean {
  const ts = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(ts) && ts > nowMs / 1000 + MAX_SKEW_SEC;
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

export function guardReceiver(
  receiver: HTTPReceiver,
  /** `now` is wall-clock time, as Bolt's own staleness check uses, not the app's injectable clock. */
  opts: { endpoints: readonly string[]; limit: number; logger: Logger; now?: () => number },
): void {
  const now = opts.now ?? Date.now;
  const inner = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method !== "POST" || !opts.endpoints.includes(path)) {
      inner(req, res);
      return;
    }
    if (isFutureDated(req.headers["x-slack-request-timestamp"], now())) {
      opts.logger.warn("Slack request dated in the future; refused");
      req.resume();
      refuse(res, 401);
      return;
    }
    readLimited(req, opts.limit).then(
      (body) => {
        if (body === "too-large") {
          opts.logger.warn({ limit: opts.limit }, "Slack request body too large; refused");
          refuse(res, 413);
          return;
        }
        if (!isSlackShaped(body.toString("utf8"), req.headers["content-type"])) {
          opts.logger.warn("request body is not shaped like anything Slack sends; refused");
          refuse(res, 400);
          return;
        }
        (req as Buffered).rawBody = body;
        inner(req, res);
      },
      (err: unknown) => {
        opts.logger.warn({ err }, "reading a Slack request failed");
        if (!res.headersSent) refuse(res, 400);
      },
    );
  };
}
