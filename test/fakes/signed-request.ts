/** Requests to the app's HTTP receiver signed the way Slack signs them (v0 HMAC-SHA256 of "v0:ts:body"). */
import { createHmac } from "node:crypto";

export function slackSignature(secret: string, timestampSec: number, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestampSec}:${body}`).digest("hex")}`;
}

export interface SignedPostOptions {
  secret?: string;
  /** Seconds since the epoch; defaults to now. */
  timestampSec?: number;
  /** Send this body, but sign `signedBody` (a tampered request). */
  signedBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface PostResult {
  status: number;
  text: string;
}

export async function signedPost(
  url: string,
  body: string,
  opts: SignedPostOptions = {},
): Promise<PostResult> {
  const ts = opts.timestampSec ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "content-type": opts.contentType ?? "application/x-www-form-urlencoded",
    ...opts.headers,
  };
  if (opts.secret !== undefined) {
    headers["x-slack-request-timestamp"] = String(ts);
    headers["x-slack-signature"] = slackSignature(opts.secret, ts, opts.signedBody ?? body);
  }
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, text: await res.text() };
}

/** Form body of a slash command. */
export function commandBody(payload: Record<string, string>): string {
  return new URLSearchParams(payload).toString();
}

/** Form body of an interactivity payload (`payload=<json>`). */
export function interactiveBody(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
