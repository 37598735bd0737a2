import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "pino";
import { silentLogger } from "../logger.js";
import { TOKEN_PATH } from "../rest-spec/oauth.js";
import { type ApiResponse, errorResponse } from "./api-response.js";
import { createControl, type SimControl } from "./control.js";
import { CONTROL_PREFIX, handleControl } from "./control-http.js";
import { FaultPlan } from "./faults.js";
import { isMultipart, loggedForm } from "./models/multipart.js";
import { OAuthIssuer } from "./oauth.js";
import { resolveOptions, type SimulatorOptions } from "./options.js";
import { answerPeer, PEER_PATH } from "./peer-wire.js";
import { registerPeer } from "./peers.js";
import { type LoggedRequest, RequestLog, redactBody } from "./request-log.js";
import { findHandler } from "./resources/index.js";
import { inGeneration, type RouterContext, routeApi } from "./routing.js";
import { SessionStore } from "./sessions.js";
import { createState, type SimState } from "./state.js";
import { selfSignedCertificate } from "./tls.js";

export interface Simulator {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** `url + "/api"`, the base every client is configured with. */
  readonly apiUrl: string;
  readonly port: number;
  /** PEM certificate clients trust to verify the simulator. */
  readonly ca: string;
  readonly arrayName: string;
  readonly state: SimState;
  readonly control: SimControl;
  close(): Promise<void>;
}

/** Bodies above this are refused; no 1.x request body comes near it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const VERSIONED_PATH = /^\/api\/\d+\.\d+(?:\.\d+)?(\/.*)$/;
const REST_2X_PATH = /^\/api\/2\.\d+\//;
/** What a 2.x array's throttle says beside a 429 (the headers Pure's 2.x SDK reads: pypureclient/keywords.py). */
const RATE_LIMIT = { second: 10, minute: 1000 };

class BodyTooLarge extends Error {}

/** The body as text: a form's as latin1, one character per byte, so an uploaded file's bytes survive. */
async function readBody(req: IncomingMessage): Promise<string> {
  const type = req.headers["content-type"];
  return (await readBytes(req)).toString(
    isMultipart(Array.isArray(type) ? type[0] : type) ? "latin1" : "utf8",
  );
}

function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, answer: ApiResponse): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.file !== undefined) {
    headers["content-type"] = answer.file.contentType;
    // The name is the simulator's own (array name, times, keytab prefix): no quoting beyond the plain form needed.
    headers["content-disposition"] = `attachment; filename="${answer.file.filename}"`;
    headers["content-length"] = answer.file.bytes.length;
    res.writeHead(answer.status, headers);
    res.end(answer.file.bytes);
    return;
  }
  if (answer.body === undefined) {
    headers["content-length"] = 0;
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const payload = JSON.stringify(answer.body);
  headers["content-type"] = "application/json";
  headers["content-length"] = Buffer.byteLength(payload);
  res.writeHead(answer.status, headers);
  res.end(payload);
}

/**
 * Starts a simulated FlashBlade over HTTPS on loopback: the 1.x wire protocol (login, sessions, versions,
 * envelopes, errors) in front of the state and handlers, plus injectable faults for resilience tests.
 */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const o = resolveOptions(opts);
  const logger: Logger = opts.logger ?? silentLogger();
  const clock = opts.clock ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  const tls = opts.tls ?? (await selfSignedCertificate());
  const state = createState({
    scenario: opts.scenario ?? "demo",
    clock,
    arrayName: o.arrayName,
    seed: o.seed,
  });
  const sessions = new SessionStore(clock, o.sessionIdleMs);
  const faults = new FaultPlan(o.seed);
  const log = new RequestLog(clock);
  // The login banner is the array's `banner` setting, so PATCH /arrays changes what login-banner answers.
  if (opts.loginBanner !== undefined) state.array.banner = opts.loginBanner;
  const apiTokens = new Map(o.apiTokens.map((t) => [t.token, t.username]));
  const oauth = new OAuthIssuer({
    state,
    clock,
    isUser: (name) =>
      state.generic.get("/admins")?.items.has(name) === true || [...apiTokens.values()].includes(name),
  });
  const router: RouterContext = {
    versions: o.versionList,
    apiTokens,
    bearer: (authorization) => oauth.user(authorization),
    sessions,
    state,
    logger,
    findHandler: opts.handlers ?? findHandler,
    loginBanner: () => state.array.banner,
    onLogin: (ok) => log.countLogin(ok),
    onLogout: () => log.countLogout(),
  };

  const sockets = new Set<Socket>();
  let port = o.port;
  let down = false;
  let closed = false;

  const server: Server = createServer({
    cert: tls.cert,
    key: tls.key,
    keepAlive: true,
    ...(opts.tlsGroups === undefined ? {} : { ecdhCurve: opts.tlsGroups }),
  });
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // Counted once the TLS session is up, as an array counts its sessions: a socket its client has just closed
  // is gone by then (the handshake takes several round trips), so the count is what the client holds open.
  server.on("secureConnection", (socket) => {
    log.countConnection(1);
    socket.on("close", () => log.countConnection(-1));
  });
  server.on("tlsClientError", (err) => logger.debug({ err }, "TLS handshake failed"));

  const control = createControl({
    state,
    faults,
    sessions,
    log,
    sleep,
    logger,
    isDown: () => down,
    goDown: async () => {
      if (down || closed) return;
      down = true;
      await stopListening(server, sockets);
    },
    goUp: async () => {
      if (!down || closed) return;
      await listen(server, port, o.host);
      down = false;
    },
  });

  async function serveApi(req: IncomingMessage, res: ServerResponse, pathname: string, search: string) {
    const method = req.method ?? "GET";
    const entry: LoggedRequest = log.begin(method, pathname, search, req.headers);
    res.on("close", () => {
      log.finish(entry, res.headersSent ? res.statusCode : "reset");
      logger.debug({ method, path: pathname, outcome: entry.outcome }, "simulator request");
    });
    const decision = faults.decide(method, pathname, VERSIONED_PATH.exec(pathname)?.[1]);
    const body = await readBody(req);
    const type = req.headers["content-type"];
    const form = isMultipart(Array.isArray(type) ? type[0] : type) ? String(type) : undefined;
    if (body !== "") entry.body = redactBody(form ? loggedForm(body, form) : body);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (decision.action?.kind === "reset") {
      log.finish(entry, "reset");
      req.socket.destroy();
      return;
    }
    // A 2.x array echoes the caller's X-Request-ID, or makes one up (auth.md §2); 2.x answers carry 2.x errors.
    const v2 = REST_2X_PATH.test(pathname);
    const given = req.headers["x-request-id"];
    const requestId = (Array.isArray(given) ? given[0] : given) ?? (v2 ? randomUUID() : undefined);
    const reply = (answer: ApiResponse) =>
      send(
        res,
        requestId === undefined
          ? answer
          : { ...answer, headers: { ...answer.headers, "x-request-id": requestId } },
      );
    if (decision.action?.kind === "fail") {
      const { status } = decision.action;
      const version = VERSIONED_PATH.test(pathname) ? (pathname.split("/")[2] ?? "1.0") : "1.0";
      const answer = inGeneration(version, errorResponse(status, decision.action.message, pathname));
      const headers: Record<string, string> = {};
      if (decision.action.retryAfter !== undefined) headers["retry-after"] = `${decision.action.retryAfter}`;
      if (v2 && status === 429) {
        headers["x-ratelimit-limit-second"] = `${RATE_LIMIT.second}`;
        headers["x-ratelimit-limit-minute"] = `${RATE_LIMIT.minute}`;
        headers["x-ratelimit-remaining-second"] = "0";
        headers["x-ratelimit-remaining-minute"] = `${RATE_LIMIT.minute - RATE_LIMIT.second}`;
      }
      if (Object.keys(headers).length > 0) answer.headers = headers;
      reply(answer);
      return;
    }
    if (pathname === TOKEN_PATH) {
      const type = req.headers["content-type"];
      reply(oauth.exchange(method, Array.isArray(type) ? type[0] : type, body));
      return;
    }
    if (pathname === PEER_PATH) {
      reply(answerPeer(state, method, body));
      return;
    }
    if (pathname !== "/api" && !pathname.startsWith("/api/")) {
      reply(errorResponse(404, `No such path: ${pathname}. The REST API lives under /api.`, pathname));
      return;
    }
    const remoteAddress = req.socket.remoteAddress ?? "";
    reply(
      await routeApi(router, {
        method,
        path: pathname.slice(4),
        search,
        headers: req.headers,
        body,
        remoteAddress,
      }),
    );
  }

  async function serveControl(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const op = pathname.slice(CONTROL_PREFIX.length + 1);
    const answer = await handleControl(control, req.method ?? "GET", op, await readBody(req));
    const { after, ...rest } = answer;
    if (after !== undefined) {
      res.on("finish", () => {
        after().catch((err: unknown) => logger.error({ err }, "control operation failed after answering"));
      });
    }
    send(res, rest);
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // Concatenated rather than resolved, so a path such as "//api/…" stays a path instead of becoming a host.
    const url = new URL(`https://simulator.invalid${req.url?.startsWith("/") ? req.url : "/"}`);
    const pathname = url.pathname;
    const search = url.search.startsWith("?") ? url.search.slice(1) : url.search;
    const isControl = o.controlPath && pathname.startsWith(`${CONTROL_PREFIX}/`);
    const work = isControl ? serveControl(req, res, pathname) : serveApi(req, res, pathname, search);
    work.catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (err instanceof BodyTooLarge) {
        res.shouldKeepAlive = false;
        send(res, errorResponse(413, `Request body larger than ${MAX_BODY_BYTES} bytes.`, pathname));
        return;
      }
      logger.error({ err, method: req.method, path: pathname }, "simulator front end failed");
      send(res, errorResponse(500, "Internal error in the simulator; see its log.", pathname));
    });
  });

  await listen(server, port, o.host);
  port = (server.address() as AddressInfo).port;
  // Another simulated array connecting to this address learns this one's name, as real arrays do.
  const forgetPeer = registerPeer(o.host, port, state);
  const hostPart = o.host.includes(":") ? `[${o.host}]` : o.host;
  const url = `https://${hostPart}:${port}`;
  logger.info({ url, arrayName: o.arrayName, versions: o.versions }, "simulator listening");

  return {
    url,
    apiUrl: `${url}/api`,
    port,
    ca: tls.cert,
    arrayName: o.arrayName,
    state,
    control,
    async close() {
      if (closed) return;
      closed = true;
      forgetPeer();
      if (!down) await stopListening(server, sockets);
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Stops accepting connections and drops the open ones, idle keep-alive sockets included. */
function stopListening(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  });
}
