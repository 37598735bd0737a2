/**
 * Slack's parts that the core needs before the app exists: the paced Web API client, identity (user groups,
 * guests), file uploads and the chat port. The composition root hands identity and chat to the core; the app
 * (app.ts) then runs around the same ports.
 */
import { LogLevel, webApi } from "@slack/bolt";
import type { SlackConfig } from "../config/slack.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../ops/metrics.js";
import { boltLogger } from "./bolt-logger.js";
import { type ChatPort, createChatPort } from "./chat-port.js";
import { createFileUploader, type FetchFn, type FileUploader } from "./file-upload.js";
import { createSlackHttp, type SlackHttp } from "./http-client.js";
import { SlackIdentity } from "./identity.js";
import { PacedSlackClient } from "./paced-client.js";

export interface SlackPorts {
  client: PacedSlackClient;
  identity: SlackIdentity;
  chat: ChatPort;
  uploader: FileUploader;
  /** The capped keep-alive HTTP client under the Web API client and respond() (http-client.ts). */
  http: SlackHttp;
}

/** No retries and no waiting of the WebClient's own: the paced client's rules are the only ones in force. */
export function webClientOptions(config: SlackConfig, logger: Logger, http?: SlackHttp) {
  const o: ConstructorParameters<typeof webApi.WebClient>[1] = {
    logger: boltLogger(logger),
    logLevel: LogLevel.INFO,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: config.timeoutMs,
  };
  if (config.apiUrl !== undefined) o.slackApiUrl = config.apiUrl;
  if (http !== undefined) o.fetch = http.fetch;
  return o;
}

export interface PortDeps {
  logger: Logger;
  metrics: Metrics;
  groupIds?: readonly string[];
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  fetch?: FetchFn;
}

/** The Web API client, identity, file uploads and chat port: everything of Slack's that the core needs. */
export function createSlackPorts(config: SlackConfig, deps: PortDeps): SlackPorts {
  const logger = deps.logger.child({ component: "slack" });
  const metrics = deps.metrics;
  const http = createSlackHttp();
  const web = new webApi.WebClient(config.botToken, webClientOptions(config, deps.logger, http));
  const client = new PacedSlackClient(
    web,
    {
      channelIntervalMs: config.channelIntervalMs,
      maxRetries: config.maxRetries,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
    },
    logger,
    metrics,
  );
  const identity = new SlackIdentity(
    client,
    {
      groupIds: deps.groupIds ?? [],
      refreshMs: config.groupRefreshSeconds * 1000,
      userInfoTtlMs: config.userInfoTtlSeconds * 1000,
      now: deps.now ?? Date.now,
    },
    logger.child({ part: "identity" }),
  );
  const uploader = createFileUploader({ client, logger, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const chat = createChatPort({ client, uploader, logger, metrics });
  return { client, identity, chat, uploader, http };
}
