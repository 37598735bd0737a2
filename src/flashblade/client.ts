/**
 * ArrayClient: generic GET/POST/PATCH/DELETE over one array's connection, paging and counting, and the typed
 * reads commands use (typed-reads.ts).
 */

import type { z } from "zod";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { findOperation } from "../rest-spec/operations.js";
import { atLeast } from "../rest-spec/versions.js";
import type { ArrayConnection } from "./connection.js";
import type { FleetMember } from "./fleet-members.js";
import { paginate } from "./paging.js";
import type { ClientCore } from "./resources/core.js";
import { toItems, toPage } from "./response.js";
import { headerValue, type WireResponse } from "./transport.js";
import { TypedReads } from "./typed-reads.js";
import type {
  ArrayClient,
  ArrayHealth,
  Page,
  PlannedCall,
  Query,
  RequestOptions,
  WriteOptions,
} from "./types.js";
import { adaptListQuery, totalsAllowed } from "./wire.js";

export class FlashBladeClient extends TypedReads implements ArrayClient {
  readonly name: string;
  readonly tags: readonly string[];
  readonly host: string;
  readonly context?: FleetMember;

  constructor(
    private readonly conn: ArrayConnection,
    context?: FleetMember,
  ) {
    super();
    if (context !== undefined) this.context = context;
    this.name = conn.name;
    this.tags = conn.tags;
    this.host = conn.host;
  }

  protected core(): ClientCore {
    return this;
  }

  version(): Promise<string> {
    return this.conn.version();
  }

  async supports(minVersion: string): Promise<boolean> {
    return atLeast(await this.conn.version(), minVersion);
  }

  health(): ArrayHealth {
    return this.conn.health();
  }

  check(): Promise<void> {
    return this.conn.check();
  }

  /** Logins made by this client (tests and the benchmark check single-flight with it). */
  get logins(): number {
    return this.conn.logins;
  }

  async get<T = unknown>(path: string, opts: RequestOptions<T> = {}): Promise<Page<T>> {
    const query = opts.query ?? {};
    const res = await this.conn.call("GET", path, {
      query: (version) => adaptListQuery(path, version, query),
    });
    if (res.bytes !== undefined) return downloaded(path, res) as Page<T>;
    return toPage(this.name, path, res.text, opts.schema, this.conn.negotiated);
  }

  iterate<T = unknown>(path: string, opts: RequestOptions<T> & { pageSize?: number } = {}): AsyncIterable<T> {
    return paginate((p, o) => this.get(p, o), path, { ...opts, array: this.name });
  }

  /**
   * Counts the items a listing would return: `total_only` where the version allows it, else one item with
   * `limit=1` for `pagination_info.total_item_count`, and only when the array sends neither, by paging.
   */
  async count(path: string, query: Query = {}): Promise<number> {
    const version = await this.conn.version();
    const params = findOperation("GET", path)?.params ?? {};
    if ("total_only" in params && totalsAllowed(path, version)) {
      const page = await this.get(path, { query: { ...query, total_only: true } });
      if (page.totalItemCount !== undefined) return page.totalItemCount;
    }
    const probe = await this.get(path, { query: { ...query, limit: 1 } });
    if (probe.totalItemCount !== undefined) return probe.totalItemCount;
    let n = 0;
    for await (const _ of this.iterate(path, { query })) n++;
    return n;
  }

  post<T = unknown>(path: string, opts: WriteOptions<T> = {}): Promise<T[]> {
    return this.#write("POST", path, opts);
  }

  patch<T = unknown>(path: string, opts: WriteOptions<T> = {}): Promise<T[]> {
    return this.#write("PATCH", path, opts);
  }

  async delete(path: string, opts: { query?: Query } = {}): Promise<void> {
    await this.conn.call("DELETE", path, opts.query ? { query: opts.query } : {});
  }

  async send<T = unknown>(plan: PlannedCall, schema?: z.ZodType<T>): Promise<T[]> {
    const res = await this.conn.call(plan.method, plan.path, {
      ...(plan.query ? { query: plan.query } : {}),
      ...(plan.body === undefined ? {} : { body: plan.body }),
    });
    return toItems(this.name, plan.path, res.text, schema, this.conn.negotiated);
  }

  async #write<T>(method: HttpMethod, path: string, opts: WriteOptions<T>): Promise<T[]> {
    const res = await this.conn.call(method, path, {
      ...(opts.query ? { query: opts.query } : {}),
      ...(opts.body === undefined ? {} : { body: opts.body }),
    });
    return toItems(this.name, path, res.text, opts.schema, this.conn.negotiated);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

/**
 * A file the array answered instead of a page: one item naming it (what a listing shows), the bytes beside it.
 * The file name is the array's (Content-Disposition), reduced to a plain name: it is only ever a label.
 */
function downloaded(path: string, res: WireResponse): Page<Record<string, unknown>> {
  const disposition = headerValue(res.headers, "content-disposition") ?? "";
  const named = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const filename = (named ?? path.split("/").filter(Boolean).join("-")).replace(/[^\w.-]+/g, "_");
  const bytes = res.bytes ?? new Uint8Array();
  return { items: [{ name: filename, size: bytes.length }], file: { filename, bytes } };
}
