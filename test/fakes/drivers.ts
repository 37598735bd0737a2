/**
 * Feeding the app the way Slack does, over either transport: HTTP mode gets signed POSTs to /slack/events,
 * Socket Mode gets envelopes over the fake socket. Both resolve when the app has acknowledged.
 */

import { commandBody, interactiveBody, signedPost } from "./signed-request.js";
import { bindResponseUrl } from "./slack-api-server.js";
import type { FakeSocketMode } from "./socket-mode-server.js";

export interface Acked {
  /** HTTP status (HTTP mode) or 200 for a socket ack. */
  status: number;
  /** Body of the acknowledgement, if any. */
  body: unknown;
}

export interface SlackDriver {
  readonly kind: "http" | "socket";
  command(payload: Record<string, string>): Promise<Acked>;
  interactive(payload: Record<string, unknown>): Promise<Acked>;
  event(payload: Record<string, unknown>, opts?: { retryNum?: number }): Promise<Acked>;
}

/** Tells the fake Slack which message a click's response_url belongs to, as Slack knows. */
function bind(p: Record<string, unknown>): Record<string, unknown> {
  const c = p["container"] as { channel_id?: unknown; message_ts?: unknown } | undefined;
  const url = p["response_url"];
  if (typeof url === "string" && typeof c?.channel_id === "string" && typeof c.message_ts === "string")
    bindResponseUrl(url, c.channel_id, c.message_ts);
  return p;
}

function parse(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function httpDriver(baseUrl: string, secret: string, path = "/slack/events"): SlackDriver {
  const url = `${baseUrl}${path}`;
  const post = async (body: string, contentType?: string, headers?: Record<string, string>) => {
    const res = await signedPost(url, body, {
      secret,
      ...(contentType ? { contentType } : {}),
      ...(headers ? { headers } : {}),
    });
    return { status: res.status, body: parse(res.text) };
  };
  return {
    kind: "http",
    command: (p) => post(commandBody(p)),
    interactive: (p) => post(interactiveBody(bind(p))),
    event: (p, opts) =>
      post(
        JSON.stringify(p),
        "application/json",
        opts?.retryNum
          ? { "x-slack-retry-num": String(opts.retryNum), "x-slack-retry-reason": "http_timeout" }
          : undefined,
      ),
  };
}

export function socketDriver(socket: FakeSocketMode): SlackDriver {
  return {
    kind: "socket",
    command: async (p) => ({ status: 200, body: (await socket.send("slash_commands", p)).payload }),
    interactive: async (p) => ({ status: 200, body: (await socket.send("interactive", bind(p))).payload }),
    event: async (p, opts) => ({
      status: 200,
      body: (await socket.send("events_api", p, opts?.retryNum ? { retryAttempt: opts.retryNum } : {}))
        .payload,
    }),
  };
}
