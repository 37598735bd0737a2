/**
 * The ops endpoints: /healthz (liveness), /readyz (readiness as JSON) and /metrics (Prometheus). In HTTP
 * mode they ride on Bolt's receiver as custom routes; in Socket Mode `startOpsServer` serves them alone.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../logger.js";
import type { Metrics } from "./metrics.js";
import type { Readiness } from "./readiness.js";

/** Same shape as Bolt's CustomRoute, so the list can be handed to its receivers as is. */
export interface OpsRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export function opsRoutes(deps: { metrics: Metrics; readiness: Readiness; logger: Logger }): OpsRoute[] {
  const { metrics, readiness, logger } = deps;
  return [
    {
      path: "/healthz",
      method: "GET",
      // Alive whatever the arrays do; the details say which arrays are not answering (bounded, never hangs).
      handler: (_req, res) => {
        readiness.arrayHealth().then(
          (arrays) => sendJson(res, 200, { status: "ok", arrays }),
          () => sendJson(res, 200, { status: "ok" }),
        );
      },
    },
    {
      path: "/readyz",
      method: "GET",
      handler: (_req, res) => {
        readiness.report().then(
          (report) => sendJson(res, report.ready ? 200 : 503, report),
          (err: unknown) => {
            logger.error({ err }, "readiness report failed");
            sendJson(res, 503, { ready: false });
          },
        );
      },
    },
    {
      path: "/metrics",
      method: "GET",
      handler: (_req, res) => {
        metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { "content-type": metrics.registry.contentType });
            res.end(text);
          },
          (err: unknown) => {
            logger.error({ err }, "metrics collection failed");
            res.writeHead(500);
            res.end();
          },
        );
      },
    },
  ];
}

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** A small HTTP server for the ops routes (Socket Mode has no inbound HTTP of its own). */
export async function startOpsServer(
  routes: readonly OpsRoute[],
  opts: { port: number; host?: string },
): Promise<OpsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const route = routes.find((r) => r.path === path && r.method === (req.method ?? "GET").toUpperCase());
    if (route === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    route.handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
