/**
 * Contract between the simulator's HTTP front end (server.ts), its listing engine (query/) and the stateful
 * resource handlers (resources/). The front end authenticates, resolves the version and endpoint, parses the
 * query string and body, then calls the handler registered for `METHOD path` or the generic collection.
 */
import type { HttpMethod } from "../rest-spec/endpoints.js";

/** Parsed query string. Lists are already split on commas; `+` already decoded as a space. */
export interface SimQuery {
  /** Raw values as received (last one wins for repeated keys). */
  readonly raw: ReadonlyMap<string, string>;
  has(name: string): boolean;
  string(name: string): string | undefined;
  /** Comma-separated list; undefined when absent. */
  list(name: string): string[] | undefined;
  /** "true"/"false"; a 400 SimHttpError on anything else. */
  bool(name: string): boolean | undefined;
  /** Integer; a 400 SimHttpError on anything else. */
  int(name: string): number | undefined;
}

export interface SimRequest {
  readonly method: HttpMethod;
  /** Path below the version, e.g. "/file-systems" or "/quotas/users". */
  readonly path: string;
  /** The version in the URL, e.g. "1.12". */
  readonly version: string;
  readonly query: SimQuery;
  /** Parsed JSON body, or undefined when the request had none. */
  readonly body: unknown;
  /** Username of the session making the call. */
  readonly user: string;
}

/** What a handler returns. The front end wraps `items` in the 1.x envelope unless `envelope` is given. */
export interface SimResult {
  status?: number;
  /** Items for POST/PATCH responses (`{"items":[…]}`). */
  items?: unknown[];
  /** A complete response body (used by listings, which build their own envelope). */
  envelope?: unknown;
  /** DELETE answers 200 with an empty body. */
  empty?: boolean;
  /** A file answered as it is (`/logs`, `/keytabs/download`): octet-stream, named in Content-Disposition. */
  file?: SimFile;
}

export interface SimFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A request the array refuses. Rendered as `{"errors":[{"context":…,"message":…}]}` with `status`. */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly context?: string,
  ) {
    super(message);
  }
}

export function badRequest(message: string, context?: string): SimHttpError {
  return new SimHttpError(400, message, context);
}

export type SimHandler<State> = (req: SimRequest, state: State) => SimResult | Promise<SimResult>;

/** Reference as real arrays emit it. */
export interface SimReference {
  name: string;
  id: string;
  resource_type: string;
}
