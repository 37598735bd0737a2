/**
 * A fake Slack Web API: a real HTTP server on 127.0.0.1:0 that answers the methods the bot calls, records
 * every call in order, serves response_url and upload URLs, and can be scripted to fail (ok:false errors,
 * HTTP 5xx, 429 with Retry-After). Unknown methods are recorded as unexpected and answered unknown_method.
 */

import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { webApi } from "@slack/bolt";
import { silentLogger } from "../../src/logger.js";
import { boltLogger } from "../../src/slack/bolt-logger.js";
import { blockKitViolations } from "./block-kit-rules.js";

export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
  token?: string;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
}

export type Scripted =
  | { status: 429; retryAfter: number }
  | { status: 500 | 502 | 503 }
  | { error: string }
  /** The call is received (and counted) but the connection breaks before any answer: an ambiguous failure. */
  | { drop: true };

/** A card replaced in place: by chat.update, or by a click's response_url with replace_original. */
export interface MessageUpdate {
  via: "chat.update" | "response_url";
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
}

/**
 * The message each click's response_url belongs to, as Slack knows it: the drivers (drivers.ts) bind it when they
 * deliver a block action, so a `replace_original` answer edits that message here as it does in Slack.
 */
const RESPONSE_URL_MESSAGES = new Map<string, { channel: string; ts: string }>();
export function bindResponseUrl(url: string, channel: string, ts: string): void {
  RESPONSE_URL_MESSAGES.set(url, { channel, ts });
}

export interface PostedMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  threadTs?: string;
  history: { text: string; blocks: unknown[] }[];
}

export interface SlackUserRecord {
  id: string;
  deleted?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parseArgs(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes("application/json"))
    return raw === "" ? {} : (JSON.parse(raw) as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // The Web API client sends arrays and objects as JSON strings.
    out[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
  }
  return out;
}

export class FakeSlackApi {
  readonly calls: ApiCall[] = [];
  readonly unexpected: ApiCall[] = [];
  readonly responses: ResponseUrlPost[] = [];
  /** Cards replaced in place, in order, whichever way. */
  readonly updates: MessageUpdate[] = [];
  /** Response-URL posts refused for breaking Block Kit limits (Slack answers invalid_blocks). */
  readonly rejectedResponses: (ResponseUrlPost & { errors: string[] })[] = [];
  readonly uploads = new Map<string, Buffer>();
  readonly messages = new Map<string, PostedMessage>();
  readonly groups = new Map<string, string[]>();
  readonly users = new Map<string, SlackUserRecord>();
  readonly events = new EventEmitter();
  /** What apps.connections.open hands out (the fake Socket Mode server's URL). */
  socketUrl = "";
  /** TCP connections the fake has accepted: how many sockets the bot opened to Slack. */
  connectionsOpened = 0;
  /** Status for POSTs to response URLs (404 = expired). */
  responseUrlStatus = 200;
  /**
   * Set, the fake takes every request and never answers (Slack behind a black-holed network); `held` counts
   * what arrived meanwhile.
   */
  unreachable = false;
  held = 0;
  private readonly scripts = new Map<string, Scripted[]>();
  private tsCounter = 1_700_000_000;
  private fileCounter = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeSlackApi> {
    let self: FakeSlackApi | undefined;
    const server = createServer((req, res) => {
      self?.handle(req, res).catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
    server.on("connection", () => {
      if (self) self.connectionsOpened++;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeSlackApi(server, `http://127.0.0.1:${port}`);
    return self;
  }

  /** Base URL for the WebClient's slackApiUrl. */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  /** A WebClient aimed at this fake, configured as the app configures its own: no retries of its own (the paced client does those), rate limits rejected. */
  webClient(token = "xoxb-test"): webApi.WebClient {
    return new webApi.WebClient(token, {
      slackApiUrl: this.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      logger: boltLogger(silentLogger()),
    });
  }

  responseUrl(id: string): string {
    return `${this.origin}/respond/${id}`;
  }

  /** Queue answers for the next calls of `method`, in order. */
  script(method: string, ...answers: Scripted[]): void {
    this.scripts.set(method, [...(this.scripts.get(method) ?? []), ...answers]);
  }

  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Resolves with the `count`-th call of `method` matching `pred` (counting calls already made). */
  waitForCall(method: string, pred: (c: ApiCall) => boolean = () => true, count = 1): Promise<ApiCall> {
    return this.waitFor("call", () => this.calls.filter((c) => c.method === method && pred(c))[count - 1]);
  }

  /** Resolves with the `count`-th replacement of a message (chat.update or response_url) matching `pred`. */
  waitForUpdate(pred: (u: MessageUpdate) => boolean = () => true, count = 1): Promise<MessageUpdate> {
    return this.waitFor("update", () => this.updates.filter(pred)[count - 1]);
  }

  updatesOf(ts: string): MessageUpdate[] {
    return this.updates.filter((u) => u.ts === ts);
  }

  private replace(msg: PostedMessage, text: string, blocks: unknown[], via: MessageUpdate["via"]): void {
    msg.history.push({ text: msg.text, blocks: msg.blocks });
    msg.text = text;
    msg.blocks = blocks;
    this.updates.push({ via, channel: msg.channel, ts: msg.ts, text, blocks });
    this.events.emit("update");
  }

  waitForResponse(pred: (r: ResponseUrlPost) => boolean = () => true, count = 1): Promise<ResponseUrlPost> {
    return this.waitFor("response", () => this.responses.filter(pred)[count - 1]);
  }

  /** The post to a response URL, accepted or refused (then with the reasons Slack would give). */
  waitForAnswer(id: string): Promise<ResponseUrlPost & { errors?: string[] }> {
    return this.waitFor(
      "response",
      () => this.responses.find((r) => r.id === id) ?? this.rejectedResponses.find((r) => r.id === id),
    );
  }

  private waitFor<T>(event: string, find: () => T | undefined): Promise<T> {
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const check = () => {
        const f = find();
        if (f !== undefined) {
          this.events.off(event, check);
          resolve(f);
        }
      };
      this.events.on(event, check);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private nextTs(): string {
    this.tsCounter += 1;
    return `${this.tsCounter}.000100`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.unreachable) {
      this.held++;
      this.events.emit("held");
      return;
    }
    const url = new URL(req.url ?? "/", this.origin);
    const body = await readBody(req);
    if (url.pathname.startsWith("/upload/")) {
      this.uploads.set(url.pathname.slice("/upload/".length), body);
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("OK");
      this.events.emit("upload");
      return;
    }
    if (url.pathname.startsWith("/respond/")) {
      const parsed = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      const invalid = blockKitViolations(parsed["blocks"] ?? []);
      if (invalid.length > 0) {
        this.rejectedResponses.push({
          id: url.pathname.slice("/respond/".length),
          body: parsed,
          errors: invalid,
        });
        res.writeHead(400, { "content-type": "text/plain" });
        res.end("invalid_blocks");
        this.events.emit("response");
        return;
      }
      this.responses.push({ id: url.pathname.slice("/respond/".length), body: parsed });
      const bound = RESPONSE_URL_MESSAGES.get(`${this.origin}${url.pathname}`);
      const msg = bound && this.messages.get(`${bound.channel}/${bound.ts}`);
      if (this.responseUrlStatus === 200 && parsed["replace_original"] === true && msg)
        this.replace(
          msg,
          String(parsed["text"] ?? ""),
          (parsed["blocks"] as unknown[]) ?? [],
          "response_url",
        );
      res.writeHead(this.responseUrlStatus, { "content-type": "text/plain" });
      res.end(this.responseUrlStatus === 200 ? "ok" : "expired_url");
      this.events.emit("response");
      return;
    }
    if (!url.pathname.startsWith("/api/")) {
      res.writeHead(404);
      res.end();
      return;
    }
    const method = url.pathname.slice("/api/".length);
    const args = parseArgs(body.toString("utf8"), String(req.headers["content-type"] ?? ""));
    const auth = String(req.headers["authorization"] ?? "");
    const call: ApiCall = { method, args };
    if (auth.startsWith("Bearer ")) call.token = auth.slice("Bearer ".length);
    const scripted = this.scripts.get(method)?.shift();
    let status = 200;
    let answer: Record<string, unknown>;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (scripted !== undefined && "drop" in scripted) {
      this.calls.push(call);
      this.events.emit("call");
      req.socket.destroy();
      return;
    }
    if (scripted !== undefined && "status" in scripted) {
      status = scripted.status;
      answer = { ok: false, error: status === 429 ? "ratelimited" : "internal_error" };
      if (scripted.status === 429) headers["retry-after"] = String(scripted.retryAfter);
    } else if (scripted !== undefined) {
      answer = { ok: false, error: scripted.error };
    } else {
      answer = this.answer(method, args, call);
    }
    this.calls.push(call);
    res.writeHead(status, headers);
    res.end(JSON.stringify(answer));
    this.events.emit("call");
  }

  private answer(method: string, args: Record<string, unknown>, call: ApiCall): Record<string, unknown> {
    const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : "");
    switch (method) {
      case "auth.test":
        return {
          ok: true,
          user_id: "UBOT",
          bot_id: "BBOT",
          team_id: "T1",
          team: "Test",
          url: "https://t.example/",
        };
      case "apps.connections.open":
        return { ok: true, url: this.socketUrl };
      case "chat.postMessage": {
        const invalid = blockKitViolations(args["blocks"] ?? []);
        if (invalid.length > 0) return { ok: false, error: "invalid_blocks", errors: invalid };
        const ts = this.nextTs();
        const msg: PostedMessage = {
          channel: str("channel"),
          ts,
          text: str("text"),
          blocks: (args["blocks"] as unknown[]) ?? [],
          history: [],
        };
        if (str("thread_ts") !== "") msg.threadTs = str("thread_ts");
        this.messages.set(`${msg.channel}/${ts}`, msg);
        return { ok: true, channel: msg.channel, ts };
      }
      case "chat.postEphemeral": {
        const invalid = blockKitViolations(args["blocks"] ?? []);
        if (invalid.length > 0) return { ok: false, error: "invalid_blocks", errors: invalid };
        return { ok: true, message_ts: this.nextTs() };
      }
      case "chat.update": {
        const invalid = blockKitViolations(args["blocks"] ?? []);
        if (invalid.length > 0) return { ok: false, error: "invalid_blocks", errors: invalid };
        const msg = this.messages.get(`${str("channel")}/${str("ts")}`);
        if (msg === undefined) return { ok: false, error: "message_not_found" };
        this.replace(msg, str("text"), (args["blocks"] as unknown[]) ?? [], "chat.update");
        return { ok: true, channel: msg.channel, ts: msg.ts };
      }
      case "views.update":
      case "views.open":
      case "views.publish": {
        if (method === "views.update" && str("view_id") === "" && str("external_id") === "")
          return { ok: false, error: "not_found" };
        const view = args["view"] as Record<string, unknown> | undefined;
        const invalid = blockKitViolations(view?.["blocks"] ?? [], "view");
        if (invalid.length > 0) return { ok: false, error: "invalid_arguments", errors: invalid };
        return { ok: true, view: { id: `V${this.calls.length}` } };
      }
      case "users.info": {
        const u = this.users.get(str("user"));
        return u === undefined ? { ok: true, user: { id: str("user") } } : { ok: true, user: u };
      }
      case "usergroups.users.list": {
        const g = this.groups.get(str("usergroup"));
        return g === undefined ? { ok: false, error: "no_such_subteam" } : { ok: true, users: g };
      }
      case "conversations.open":
        return { ok: true, channel: { id: `D${str("users")}` } };
      case "files.getUploadURLExternal": {
        this.fileCounter += 1;
        const id = `F${this.fileCounter}`;
        return { ok: true, upload_url: `${this.origin}/upload/${id}`, file_id: id };
      }
      case "files.completeUploadExternal":
        return { ok: true, files: args["files"] };
      // Workflow steps, as Slack documents them: the execution id, and outputs (an object) or an error (a string).
      case "functions.completeSuccess": {
        const outputs = typeof args["outputs"] === "string" ? JSON.parse(args["outputs"]) : args["outputs"];
        if (str("function_execution_id") === "" || outputs === null || typeof outputs !== "object")
          return { ok: false, error: "invalid_arguments" };
        return { ok: true };
      }
      case "functions.completeError":
        if (str("function_execution_id") === "" || str("error") === "")
          return { ok: false, error: "invalid_arguments" };
        return { ok: true };
      default:
        this.unexpected.push(call);
        return { ok: false, error: "unknown_method" };
    }
  }
}
