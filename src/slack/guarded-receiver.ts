/**
 * A guard in front of Bolt's HTTP receiver, and the receiver's signature check. It reads the body first (with
 * the same size limit) and verifies Slack's signature itself, once, with a key made once (signature.ts): Bolt's
 * own check sits on every ack's path and costs three HMACs and a random key per request, so the receiver is
 * built with it off and nothing reaches Bolt unverified. The check also refuses requests dated more than
 * 5 minutes ahead, which Bolt's lets through: a signed request must not stay replayable for longer than
 * Slack's five-minute window. Slack's `ssl_check` (unsigned by design) is answered here and goes no further,
 * whatever else its body carries. Then it answers 400 to anything not shaped like a Slack delivery: Bolt
 * reads `body.ssl_check` from whatever the request parsed to, so a signed body whose `payload` is `null` (or
 * a JSON body that is not an object) would throw inside a promise nobody awaits, never answered. The
 * buffered request goes on to Bolt, which uses the buffered body as it is (`rawBody`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQs } from "node:querystring";
import { type App, HTTPModuleFunctions, type HTTPReceiver } from "@slack/bolt";
import type { Logger } from "../logger.js";
import { ackFirst } from "./ack-first.js";
import { signatureCheck } from "./signature.js";

/** Slack's own payloads are far smaller; Bolt's default is 4 MB. */
export const SLACK_BODY_LIMIT = 1024 * 1024;

const FORM = "application/x-www-form-urlencoded";

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

type Form = ReturnType<typeof parseQs>;

/**
 * True for the shapes Slack sends: a slash command form (`form`, parsed when the body is one), or a JSON object
 * with a string `type` (interactivity payloads and Events API envelopes). Anything else Bolt would either
 * crash on or hold for 3 seconds before answering 404.
 */
function isSlackShaped(raw: string, form: Form | undefined): boolean {
  try {
    let value: unknown;
    if (form !== undefined) {
      if (typeof form["payload"] !== "string") return typeof form["command"] === "string";
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

/** An empty answer in one write: `writeHead` first would frame it as chunked, headers and terminator apart. */
function answer(res: ServerResponse, status: number): void {
  res.statusCode = status;
  res.end();
}

/** Bolt's event as a receiver hands it to `App.processEvent`. */
export type ReceiverEvent = Parameters<App["processEvent"]>[0];

/**
 * Slash commands acknowledged by the guard itself: a verified command is answered 200 at once and handed to
 * Bolt afterwards with an ack that does nothing, so no parsing, authorisation or middleware of Bolt's stands
 * between a command and its ack. Listeners see `context.ackedEarly`. `dispatch` is set once the app exists;
 * while it is unset, or `accepting()` says no (the bot is draining and acks with a message), Bolt's receiver
 * acknowledges as usual.
 */
export interface EarlyAck {
  accepting: () => boolean;
  dispatch?: (event: ReceiverEvent) => Promise<void>;
}

/** Slack's retry headers, read as Bolt's receiver reads them. */
function retryHeaders(req: IncomingMessage): Pick<ReceiverEvent, "retryNum" | "retryReason"> {
  const retryNum = HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req);
  const retryReason = HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req);
  return {
    ...(retryNum === undefined ? {} : { retryNum }),
    ...(retryReason === undefined ? {} : { retryReason }),
  };
}

export function guardReceiver(
  receiver: HTTPReceiver,
  opts: {
    endpoints: readonly string[];
    limit: number;
    logger: Logger;
    signingSecret: string;
    early?: EarlyAck;
    /** Wall-clock time, as Slack's timestamps are, not the app's injectable clock. */
    now?: () => number;
  },
): void {
  const verify = signatureCheck(opts.signingSecret, opts.now);
  const acks = ackFirst();
  const inner = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    // Routed exactly as Bolt's receiver routes (its URL parse, its upper-cased method): with Bolt's own signature
    // check off, nothing Bolt would take as a Slack delivery may pass here unchecked. A target that is one of the
    // endpoints as it stands parses to itself, so Slack's own requests skip the parse (on every ack's path).
    const url = req.url ?? "/";
    const path = opts.endpoints.includes(url) ? url : new URL(url, "http://localhost").pathname;
    if ((req.method ?? "").toUpperCase() !== "POST" || !opts.endpoints.includes(path)) {
      inner(req, res);
      return;
    }
    // A response emits "close" once it is sent, and also when the client goes away before an answer.
    res.once("close", acks.arrived());
    readLimited(req, opts.limit).then(
      (body) => {
        if (body === "too-large") {
          opts.logger.warn({ limit: opts.limit }, "Slack request body too large; refused");
          answer(res, 413);
          return;
        }
        const raw = body.toString("utf8");
        const form = req.headers["content-type"] === FORM ? parseQs(raw) : undefined;
        // Slack's probe, unsigned by design: answered and never handed on, whatever else the body carries.
        if (form?.["ssl_check"] === "1") {
          answer(res, 200);
          return;
        }
        const verdict = verify(
          req.headers["x-slack-request-timestamp"],
          req.headers["x-slack-signature"],
          body,
        );
        if (verdict !== "ok") {
          opts.logger.warn({ verdict }, "Slack request signature not valid; refused");
          answer(res, 401);
          return;
        }
        if (!isSlackShaped(raw, form)) {
          opts.logger.warn("request body is not shaped like anything Slack sends; refused");
          answer(res, 400);
          return;
        }
        const early = opts.early;
        const dispatch = early?.dispatch;
        // A slash command as Bolt would read it: a form with no `payload` (Bolt would parse that instead).
        const command =
          form !== undefined && form["payload"] === undefined && typeof form["command"] === "string";
        if (dispatch && command && early.accepting()) {
          answer(res, 200);
          const event: ReceiverEvent = {
            body: form as Record<string, unknown>,
            ack: async () => {},
            customProperties: { ackedEarly: true },
            ...retryHeaders(req),
          };
          // Once the requests arriving alongside it are answered: a burst is acknowledged before any work.
          acks.later(() => {
            dispatch(event).catch((err: unknown) =>
              opts.logger.error({ err }, "a Slack command failed in Bolt"),
            );
          });
          return;
        }
        (req as Buffered).rawBody = body;
        inner(req, res);
      },
      (err: unknown) => {
        opts.logger.warn({ err }, "reading a Slack request failed");
        if (!res.headersSent) answer(res, 400);
      },
    );
  };
}
