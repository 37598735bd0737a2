/**
 * The one wrapper between a command and its array: every request a command sends (`ctx.array`, a client it
 * reaches through `ctx.pool`, a typed read, a page of a listing) passes two hooks before it leaves. Core
 * supplies them, so this module knows neither roles nor limits: `policy` is the access policy (a refusal
 * sends nothing), `budget` the command's request budget. Version negotiation and health are not requests of
 * the command's (they happen once per connection) and pass unchecked.
 */
import type { z } from "zod";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import type { FleetMember } from "./fleet-members.js";
import { paginate } from "./paging.js";
import type { ClientCore } from "./resources/core.js";
import { TypedReads } from "./typed-reads.js";
import type {
  ArrayClient,
  ArrayHealth,
  ArrayPool,
  Page,
  PlannedCall,
  Query,
  RequestOptions,
  WriteOptions,
} from "./types.js";

export interface RequestHooks {
  /**
   * Resolves when `array` may be sent this request; throws (and nothing is sent) when not. A listing is
   * checked once, before its first page: its later pages differ only by their position.
   */
  readonly policy?: (
    array: ArrayClient,
    method: HttpMethod,
    path: string,
    query: Query | PlannedCall["query"] | undefined,
  ) => Promise<void>;
  /** Charged once for every request sent (each page of a listing); throws to stop it from being sent. */
  readonly budget?: (method: HttpMethod, path: string) => void;
  /**
   * Told of every page that came back partial (REST 2.x 207: `errors` beside the items), so the answer can say
   * what the array could not list instead of dropping it.
   */
  readonly partial?: (array: string, path: string, errors: NonNullable<Page<unknown>["errors"]>) => void;
}

export class InterceptedClient extends TypedReads implements ArrayClient {
  readonly name: string;
  readonly tags: readonly string[];
  readonly host?: string;
  readonly context?: FleetMember;

  constructor(
    readonly inner: ArrayClient,
    readonly hooks: RequestHooks,
  ) {
    super();
    if (inner.context !== undefined) this.context = inner.context;
    this.name = inner.name;
    this.tags = inner.tags;
    if (inner.host !== undefined) this.host = inner.host;
  }

  protected core(): ClientCore {
    return this;
  }

  version(): Promise<string> {
    return this.inner.version();
  }
  supports(minVersion: string): Promise<boolean> {
    return this.inner.supports(minVersion);
  }
  health(): ArrayHealth {
    return this.inner.health();
  }
  check(): Promise<void> {
    return this.inner.check();
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  async get<T = unknown>(path: string, opts?: RequestOptions<T>): Promise<Page<T>> {
    await this.#before("GET", path, opts?.query);
    return this.#reported(path, await this.inner.get(path, opts));
  }

  iterate<T = unknown>(path: string, opts: RequestOptions<T> & { pageSize?: number } = {}): AsyncIterable<T> {
    const { inner, hooks } = this;
    const budget = hooks.budget;
    const allowed = () => hooks.policy?.(inner, "GET", path, opts.query);
    // Without hooks on pages the client's own walk serves; with them, each page is charged and read for errors.
    const walk = (): AsyncIterator<T> =>
      budget === undefined && hooks.partial === undefined
        ? inner.iterate(path, opts)[Symbol.asyncIterator]()
        : paginate(
            async (p, o) => {
              budget?.("GET", p);
              return this.#reported(p, await inner.get(p, o));
            },
            path,
            { ...opts, array: inner.name },
          );
    return { [Symbol.asyncIterator]: () => openedWhenAllowed(allowed, walk) };
  }

  /** One request, or two where the array sends no total: charged as one before it starts. */
  async count(path: string, query?: Query): Promise<number> {
    await this.#before("GET", path, query);
    return this.inner.count(path, query);
  }

  async post<T = unknown>(path: string, opts?: WriteOptions<T>): Promise<T[]> {
    await this.#before("POST", path, opts?.query);
    return this.inner.post(path, opts);
  }

  async patch<T = unknown>(path: string, opts?: WriteOptions<T>): Promise<T[]> {
    await this.#before("PATCH", path, opts?.query);
    return this.inner.patch(path, opts);
  }

  async delete(path: string, opts?: { query?: Query }): Promise<void> {
    await this.#before("DELETE", path, opts?.query);
    return this.inner.delete(path, opts);
  }

  async send<T = unknown>(plan: PlannedCall, schema?: z.ZodType<T>): Promise<T[]> {
    await this.#before(plan.method, plan.path, plan.query);
    return this.inner.send(plan, schema);
  }

  #reported<P extends Page<unknown>>(path: string, page: P): P {
    if (page.errors !== undefined && page.errors.length > 0)
      this.hooks.partial?.(this.name, path, page.errors);
    return page;
  }

  async #before(method: HttpMethod, path: string, query: Query | PlannedCall["query"] | undefined) {
    await this.hooks.policy?.(this.inner, method, path, query);
    this.hooks.budget?.(method, path);
  }
}

/**
 * The walk opened once `allowed` resolves, at the first `next()` (nothing is sent before it); then every item
 * comes straight from the walk's iterator. An async generator with `yield*` here cost two more promise turns
 * per item, a fair part of a list's own cost (issue 27).
 */
function openedWhenAllowed<T>(
  allowed: () => Promise<void> | undefined,
  walk: () => AsyncIterator<T>,
): AsyncIterator<T> {
  let inner: AsyncIterator<T> | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  const open = async (): Promise<void> => {
    await allowed();
    if (!closed) inner = walk();
  };
  const after = async (): Promise<IteratorResult<T>> => {
    opening ??= open();
    await opening;
    return inner && !closed ? inner.next() : { done: true, value: undefined };
  };
  return {
    next: () => (inner && !closed ? inner.next() : after()),
    async return(value?: unknown): Promise<IteratorResult<T>> {
      closed = true;
      if (inner?.return) return inner.return(value);
      return { done: true, value: value as T };
    },
  };
}

/**
 * The pool with every client it hands out intercepted by the same hooks (a command reaching another array),
 * each client once: reached again, it is the same object.
 */
export function interceptPool(inner: ArrayPool, hooks: RequestHooks): ArrayPool {
  const made = new WeakMap<ArrayClient, ArrayClient>();
  const wrap = (client: ArrayClient): ArrayClient => {
    let w = made.get(client);
    if (!w) {
      w = new InterceptedClient(client, hooks);
      made.set(client, w);
    }
    return w;
  };
  return {
    list: () => inner.list().map(wrap),
    get: (name) => wrap(inner.get(name)),
    select: (spec) => inner.select(spec).map(wrap),
    ...(inner.discover ? { discover: (spec?: string) => inner.discover?.(spec) ?? Promise.resolve() } : {}),
    ...(inner.fleetMembers ? { fleetMembers: () => inner.fleetMembers?.() ?? [] } : {}),
    health: () => inner.health(),
    checkAll: () => inner.checkAll(),
    sweepIdle: () => inner.sweepIdle(),
    sockets: () => inner.sockets(),
    close: () => inner.close(),
  };
}
