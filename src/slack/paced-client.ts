/**
 * Every Web API call the bot makes goes through here. Calls are paced per method (Slack's rate tiers) and,
 * for posting methods, per channel (about one message a second). A 429 pauses only the method or channel
 * that got it, for the Retry-After it sent; other calls go on. Transient failures (5xx, network, Slack's
 * own internal errors) are retried a bounded number of times, except for posting methods: a post that failed
 * after it was sent (time-out, broken connection, 5xx) may have been accepted, and posting it again leaves a
 * duplicate card whose first copy is never updated. Posts are retried only after a 429 or when the connection
 * was never made; the alert outbox owns everything else. The WebClient underneath is configured to reject
 * rate-limited calls at once and never retry, so these rules are the only ones in force.
 */
import { webApi } from "@slack/bolt";
import Bottleneck from "bottleneck";
import type { Logger } from "../logger.js";
import type { Metrics } from "../ops/metrics.js";

export type WebClient = InstanceType<typeof webApi.WebClient>;
export type CallResult = Record<string, unknown> & { ok?: boolean };

/** Calls per minute by Slack tier (docs.slack.dev/apis/web-api/rate-limits). */
const TIER = { 2: 20, 3: 50, 4: 100 } as const;

const METHOD_PER_MINUTE: Record<string, number> = {
  // Special tier: ~1/s per channel (the channel limiter), several hundred a minute per workspace.
  "chat.postMessage": 300,
  "chat.postEphemeral": TIER[4],
  "chat.update": TIER[3],
  "chat.delete": TIER[3],
  "conversations.open": TIER[3],
  "users.info": TIER[4],
  "usergroups.users.list": TIER[2],
  "usergroups.list": TIER[2],
  "views.open": TIER[4],
  "views.publish": TIER[4],
  "views.update": TIER[4],
  "files.getUploadURLExternal": TIER[4],
  "files.completeUploadExternal": TIER[4],
};

/** Methods that post into a channel and so share that channel's one-a-second pace. */
const CHANNEL_PACED = new Set(["chat.postMessage", "chat.postEphemeral", "files.completeUploadExternal"]);

/** `ok:false` errors that mean "try again", per the Web API's error lists. */
const TRANSIENT_PLATFORM = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
]);

export interface PacingOptions {
  channelIntervalMs: number;
  maxRetries: number;
  /** First backoff for transient failures; doubles per attempt. */
  retryBaseMs?: number;
  /** How to wait (Retry-After, backoff); tests pass a controllable one. */
  sleep?: (ms: number) => Promise<void>;
}

export const realSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** Methods whose repetition is visible: a second post is a second message. */
const POSTING = new Set([
  "chat.postMessage",
  "chat.postEphemeral",
  "chat.scheduleMessage",
  "files.completeUploadExternal",
]);

/** Network error codes that mean the request never left: no connection was made. */
const CONNECT_PHASE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

type Failure =
  | { kind: "rate_limited"; waitMs: number }
  /** Failed before anything was sent: safe to repeat for any method. */
  | { kind: "not_sent" }
  /** May or may not have been applied: repeated only for methods whose repetition is harmless. */
  | { kind: "transient" }
  | { kind: "fatal" };

/** The system error code under a request error (fetch wraps it as `cause`, axios puts it on the error). */
function networkCode(err: InstanceType<typeof webApi.WebAPIRequestError>): string | undefined {
  let e: unknown = err.original;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    if ("code" in e && typeof e.code === "string" && CONNECT_PHASE.has(e.code)) return e.code;
    e = "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

function classify(err: unknown): Failure {
  if (err instanceof webApi.WebAPIRateLimitedError)
    return { kind: "rate_limited", waitMs: err.retryAfter * 1000 };
  if (err instanceof webApi.WebAPIRequestError) {
    const code = networkCode(err);
    return code !== undefined && CONNECT_PHASE.has(code) ? { kind: "not_sent" } : { kind: "transient" };
  }
  if (err instanceof webApi.WebAPIHTTPError) {
    return err.statusCode >= 500 || err.statusCode === 408 ? { kind: "transient" } : { kind: "fatal" };
  }
  if (err instanceof webApi.WebAPIPlatformError) {
    if (err.data.error === "ratelimited") return { kind: "rate_limited", waitMs: 1000 };
    return TRANSIENT_PLATFORM.has(err.data.error) ? { kind: "transient" } : { kind: "fatal" };
  }
  return { kind: "fatal" };
}

/** The Slack error code of a failed call (`channel_not_found`…), or undefined for non-platform errors. */
export function slackErrorCode(err: unknown): string | undefined {
  return err instanceof webApi.WebAPIPlatformError ? err.data.error : undefined;
}

export class PacedSlackClient {
  private readonly methods = new Map<string, Bottleneck>();
  private readonly channels: Bottleneck.Group;
  /** Keys (method or channel) paused by a 429, and when the pause ends. */
  private readonly gates = new Map<string, Promise<void>>();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly web: WebClient,
    private readonly opts: PacingOptions,
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.sleep = opts.sleep ?? realSleep;
    this.channels = new Bottleneck.Group({ maxConcurrent: 1, minTime: opts.channelIntervalMs });
  }

  private methodLimiter(method: string): Bottleneck {
    let l = this.methods.get(method);
    if (l === undefined) {
      const perMinute = METHOD_PER_MINUTE[method] ?? TIER[3];
      l = new Bottleneck({
        reservoir: perMinute,
        reservoirRefreshAmount: perMinute,
        reservoirRefreshInterval: 60_000,
      });
      this.methods.set(method, l);
    }
    return l;
  }

  private async passGates(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const gate = this.gates.get(key);
      if (gate !== undefined) await gate;
    }
  }

  private closeGate(key: string, ms: number): void {
    if (this.gates.has(key)) return;
    const gate = this.sleep(ms).then(() => {
      this.gates.delete(key);
    });
    this.gates.set(key, gate);
  }

  async call<T extends CallResult = CallResult>(
    method: string,
    args: Record<string, unknown> = {},
  ): Promise<T> {
    const channel = typeof args["channel"] === "string" ? args["channel"] : args["channel_id"];
    const channelKey =
      CHANNEL_PACED.has(method) && typeof channel === "string" ? `channel:${channel}` : undefined;
    const pauseKey = channelKey ?? `method:${method}`;
    const run = () => this.methodLimiter(method).schedule(() => this.web.apiCall(method, args));
    for (let attempt = 0; ; attempt++) {
      await this.passGates(
        channelKey === undefined ? [`method:${method}`] : [`method:${method}`, channelKey],
      );
      try {
        const result =
          channelKey === undefined ? await run() : await this.channels.key(channelKey).schedule(run);
        this.metrics?.slackCalls.inc({ method, outcome: "ok" });
        return result as T;
      } catch (err) {
        const failure = classify(err);
        const repeatable =
          failure.kind === "rate_limited" ||
          failure.kind === "not_sent" ||
          (failure.kind === "transient" && !POSTING.has(method));
        const retry = repeatable && attempt < this.opts.maxRetries;
        this.metrics?.slackCalls.inc({ method, outcome: failure.kind === "fatal" ? "error" : failure.kind });
        this.logger.warn(
          { method, attempt, failure: failure.kind, slackError: slackErrorCode(err), willRetry: retry },
          "slack call failed",
        );
        if (!retry) throw err;
        if (failure.kind === "rate_limited") this.closeGate(pauseKey, failure.waitMs);
        else await this.sleep((this.opts.retryBaseMs ?? 500) * 2 ** attempt);
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.methods.values()].map((l) => l.disconnect(false)));
    await Promise.all(this.channels.limiters().map(({ limiter }) => limiter.disconnect(false)));
  }
}
