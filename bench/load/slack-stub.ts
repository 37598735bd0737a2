/**
 * A minimal Slack for the load test: a real HTTP server answering the Web API methods the bot calls (with
 * an injectable share of 429s), receiving response_url posts, and letting the driver wait for what the bot
 * sent. Unlike test/fakes it keeps no full call history: a 60-second run sends tens of thousands of calls.
 */
import { createHmac } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubCall {
  method: string;
  args: Record<string, unknown>;
}

export interface StubOptions {
  /** Share (0..1) of chat.postMessage, chat.update and views.open answered 429 with Retry-After: 1. */
  rate429?: number;
  random?: () => number;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseArgs(raw: string, type: string | undefined): Record<string, unknown> {
  if (type?.includes("application/json")) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) out[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
  return out;
}

const LIMITED = new Set(["chat.postMessage", "chat.update", "views.open"]);

export class SlackStub {
  readonly events = new EventEmitter();
  readonly counts = new Map<string, number>();
  throttled = 0;
  readonly throttledBy = new Map<string, number>();
  /** What apps.connections.open hands out: a Socket Mode endpoint, when a bench plays one. */
  socketUrl = "";
  private ts = 1_700_000_000;
  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {
    this.events.setMaxListeners(0);
  }

  static async start(opts: StubOptions = {}): Promise<SlackStub> {
    const random = opts.random ?? Math.random;
    let stub: SlackStub | undefined;
    const server = createServer((req, res) => {
      void body(req).then((raw) => {
        const s = stub as SlackStub;
        const url = req.url ?? "/";
        const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(JSON.stringify(value));
        };
        if (url.startsWith("/respond/")) {
          s.events.emit("response", url.slice("/respond/".length), parseArgs(raw, "application/json"));
          return json(200, { ok: true });
        }
        if (url.startsWith("/upload/")) return json(200, { ok: true });
        const method = url.replace(/^\/api\//, "").split("?")[0] ?? "";
        s.counts.set(method, (s.counts.get(method) ?? 0) + 1);
        const args = parseArgs(raw, req.headers["content-type"]);
        if (LIMITED.has(method) && random() < (opts.rate429 ?? 0)) {
          s.throttled++;
          s.throttledBy.set(method, (s.throttledBy.get(method) ?? 0) + 1);
          // Heard by the driver, which tells the approvals that waited on a Retry-After from the others.
          s.events.emit("throttled", { method, args });
          return json(429, { ok: false, error: "ratelimited" }, { "retry-after": "1" });
        }
        const ts = `${++s.ts}.000100`;
        s.events.emit("call", { method, args, ts });
        switch (method) {
          case "auth.test":
            return json(200, { ok: true, user_id: "UBOT", team_id: "T1", bot_id: "B1" });
          case "users.info":
            return json(200, { ok: true, user: { id: args["user"], is_restricted: false } });
          case "chat.postMessage":
            return json(200, { ok: true, channel: args["channel"], ts });
          case "conversations.open":
            return json(200, { ok: true, channel: { id: `D${String(args["users"])}` } });
          case "apps.connections.open":
            return json(200, { ok: true, url: s.socketUrl });
          case "files.getUploadURLExternal":
            return json(200, { ok: true, upload_url: `${s.base}/upload/${ts}`, file_id: `F${ts}` });
          default:
            return json(200, { ok: true, ts, channel: args["channel"] });
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    stub = new SlackStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return stub;
  }

  get apiUrl(): string {
    return `${this.base}/api/`;
  }

  responseUrl(id: string): string {
    return `${this.base}/respond/${id}`;
  }

  /**
   * Resolves with the first Web API call (from now on) that `pred` accepts. Once `signal` aborts, the wait
   * stops listening (and never resolves): a wait left listening would test every later call, for ever.
   */
  waitForCall(
    pred: (c: StubCall & { ts: string }) => boolean,
    signal?: AbortSignal,
  ): Promise<StubCall & { ts: string }> {
    return new Promise((resolve) => {
      const on = (c: StubCall & { ts: string }) => {
        if (!pred(c)) return;
        this.events.off("call", on);
        resolve(c);
      };
      this.events.on("call", on);
      signal?.addEventListener("abort", () => this.events.off("call", on), { once: true });
    });
  }

  /** Calls `on` for each call answered 429 that `pred` accepts, until `signal` aborts. */
  onThrottled(pred: (c: StubCall) => boolean, on: () => void, signal: AbortSignal): void {
    const listener = (c: StubCall) => {
      if (pred(c)) on();
    };
    this.events.on("throttled", listener);
    signal.addEventListener("abort", () => this.events.off("throttled", listener), { once: true });
  }

  /** How many "call" waits are listening (the load test checks it drops back to zero). */
  get waits(): number {
    return this.events.listenerCount("call");
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/**
 * POSTs a form to the bot's /slack/events signed as Slack signs it (v0, HMAC-SHA256 of `v0:<ts>:<body>`); the
 * answer's body is read, and its status returned. The sender processes of the benchmarks and the load test use it.
 */
/** A slash command's form as Slack sends it: the body and its signed headers, built before anything is timed. */
export function signedForm(
  secret: string,
  form: Record<string, string>,
): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams(form).toString();
  const ts = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(ts),
      "x-slack-signature": `v0=${createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex")}`,
    },
  };
}

export async function postSigned(url: string, secret: string, form: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: "POST", ...signedForm(secret, form) });
  await res.text();
  return res.status;
}
