/**
 * A client that runs a check before every request it sends, for limits that belong to one command (its
 * request budget): the typed resource functions are rebuilt on the wrapper, so `fileSystems.list()` and every
 * page of an `iterate` pass the check as a raw `get` does. Version negotiation is not a request of the
 * command's (it happens once per connection) and passes unchecked.
 */
import type { z } from "zod";
import { withTypedApis } from "./client.js";
import { paginate } from "./paging.js";
import type { ArrayClient, ArrayPool, PlannedCall, Query, RequestOptions, WriteOptions } from "./types.js";

/** Called before each request with its method and path; throws to stop the request from being sent. */
export type BeforeRequest = (method: PlannedCall["method"], path: string) => void;

export function guardedClient(inner: ArrayClient, before: BeforeRequest): ArrayClient {
  const c: ArrayClient = withTypedApis({
    name: inner.name,
    tags: inner.tags,
    ...(inner.host === undefined ? {} : { host: inner.host }),
    version: () => inner.version(),
    supports: (v) => inner.supports(v),
    health: () => inner.health(),
    check: () => inner.check(),
    get<T>(path: string, opts?: RequestOptions<T>) {
      before("GET", path);
      return inner.get<T>(path, opts);
    },
    iterate<T>(path: string, opts: RequestOptions<T> & { pageSize?: number } = {}): AsyncIterable<T> {
      return paginate((p, o) => c.get(p, o), path, { ...opts, array: inner.name });
    },
    // A count is one request, or two where the array sends no total; charged as one before it starts.
    count(path: string, query?: Query) {
      before("GET", path);
      return inner.count(path, query);
    },
    post<T>(path: string, opts?: WriteOptions<T>) {
      before("POST", path);
      return inner.post<T>(path, opts);
    },
    patch<T>(path: string, opts?: WriteOptions<T>) {
      before("PATCH", path);
      return inner.patch<T>(path, opts);
    },
    delete(path: string, opts?: { query?: Query }) {
      before("DELETE", path);
      return inner.delete(path, opts);
    },
    send<T>(plan: PlannedCall, schema?: z.ZodType<T>) {
      before(plan.method, plan.path);
      return inner.send<T>(plan, schema);
    },
    close: () => inner.close(),
  });
  return c;
}

/** `wrap` done once per client: a client reached again (through the pool, or as the command's own) is the same. */
export function wrapOnce(wrap: (client: ArrayClient) => ArrayClient): (client: ArrayClient) => ArrayClient {
  const wrapped = new WeakMap<ArrayClient, ArrayClient>();
  return (client) => {
    let w = wrapped.get(client);
    if (!w) {
      w = wrap(client);
      wrapped.set(client, w);
    }
    return w;
  };
}

/** The pool with every client it hands out guarded the same way (a command reaching another array). */
export function guardedPool(inner: ArrayPool, guard: (client: ArrayClient) => ArrayClient): ArrayPool {
  return {
    list: () => inner.list().map(guard),
    get: (name) => guard(inner.get(name)),
    select: (spec) => inner.select(spec).map(guard),
    health: () => inner.health(),
    checkAll: () => inner.checkAll(),
    sweepIdle: () => inner.sweepIdle(),
    sockets: () => inner.sockets(),
    close: () => inner.close(),
  };
}
