/**
 * ArrayClient: generic GET/POST/PATCH/DELETE over one array's connection, paging and counting, and the typed
 * resource functions commands use.
 */

import type { z } from "zod";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { findOperation } from "../rest-spec/operations.js";
import { atLeast } from "../rest-spec/versions.js";
import type { ArrayConnection } from "./connection.js";
import { paginate } from "./paging.js";
import { alertsApi } from "./resources/alerts.js";
import { arraysApi } from "./resources/arrays.js";
import { bucketsApi } from "./resources/buckets.js";
import { fileSystemsApi } from "./resources/file-systems.js";
import { quotasApi } from "./resources/quotas.js";
import { replicaLinksApi } from "./resources/replication.js";
import { snapshotsApi } from "./resources/snapshots.js";
import { toItems, toPage } from "./response.js";
import { headerValue, type WireResponse } from "./transport.js";
import type {
  AlertsApi,
  ArrayClient,
  ArrayHealth,
  ArraysApi,
  BucketsApi,
  FileSystemsApi,
  Page,
  PlannedCall,
  Query,
  QuotasApi,
  ReplicaLinksApi,
  RequestOptions,
  SnapshotsApi,
  WriteOptions,
} from "./types.js";
import { adaptListQuery, totalsAllowed } from "./wire.js";

/** The typed resource functions, each built over a core (a client's generic calls). */
const TYPED_APIS = {
  fileSystems: fileSystemsApi,
  snapshots: snapshotsApi,
  alerts: alertsApi,
  arrays: arraysApi,
  replicaLinks: replicaLinksApi,
  buckets: bucketsApi,
  quotas: quotasApi,
};

type TypedApis = { readonly [K in keyof typeof TYPED_APIS]: ReturnType<(typeof TYPED_APIS)[K]> };

/**
 * The typed resource functions as getters, each built on first use over the object it is read from, so what
 * they send passes through that object's generic calls (a wrapper's checks included). Most commands (every
 * catalogue verb) never touch them, and building all seven for each command's context was a measurable part
 * of a list's own cost (issue 27). A wrapper made per command (src/core/request-guard.ts) inherits them from
 * this prototype instead of defining seven getters on itself, which cost more than the rest of the wrapper.
 */
export const TYPED_APIS_PROTOTYPE: object = (() => {
  const built = new WeakMap<object, Record<string, unknown>>();
  const getters: PropertyDescriptorMap = {};
  for (const [key, make] of Object.entries(TYPED_APIS)) {
    getters[key] = {
      get(this: Omit<ArrayClient, keyof TypedApis>) {
        let apis = built.get(this);
        if (apis === undefined) {
          apis = {};
          built.set(this, apis);
        }
        apis[key] ??= make(this);
        return apis[key];
      },
      enumerable: true,
      configurable: true,
    };
  }
  return Object.defineProperties({}, getters);
})();

/** `client` with the same getters as its own properties (for an object with a class of its own). */
export function withTypedApis(client: Omit<ArrayClient, keyof TypedApis>): ArrayClient {
  return Object.defineProperties(
    client,
    Object.getOwnPropertyDescriptors(TYPED_APIS_PROTOTYPE),
  ) as ArrayClient;
}

export class FlashBladeClient implements ArrayClient {
  readonly name: string;
  readonly tags: readonly string[];
  readonly host: string;
  declare readonly fileSystems: FileSystemsApi;
  declare readonly snapshots: SnapshotsApi;
  declare readonly alerts: AlertsApi;
  declare readonly arrays: ArraysApi;
  declare readonly replicaLinks: ReplicaLinksApi;
  declare readonly buckets: BucketsApi;
  declare readonly quotas: QuotasApi;

  constructor(private readonly conn: ArrayConnection) {
    this.name = conn.name;
    this.tags = conn.tags;
    this.host = conn.host;
    withTypedApis(this);
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
