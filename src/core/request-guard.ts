/**
 * The access policy (src/rest-spec/policy.ts) enforced where every request passes: the array clients a command
 * is handed (`ctx.array`, and every client reached through `ctx.pool`) are wrapped for the acting person's role
 * on that array, so any request a command, the raw `api` call, a button or a future face sends is checked
 * against the one table before it leaves, not by care in each command. A refused request sends nothing.
 */
import type { z } from "zod";
import { UserFacingError } from "../errors.js";
import { TYPED_APIS_PROTOTYPE } from "../flashblade/client.js";
import { guardedPool, wrapOnce } from "../flashblade/guarded-client.js";
import type {
  ArrayClient,
  ArrayPool,
  Page,
  PlannedCall,
  Query,
  RequestOptions,
  WriteOptions,
} from "../flashblade/types.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { policyAllows, requestRule } from "../rest-spec/policy.js";
import { forbidden } from "./authz.js";
import type { Role } from "./roles.js";

/** The actor's role on one array (undefined: none there). */
export type RoleOn = (array: ArrayClient) => Promise<Role | undefined>;

/** Throws unless `role` may send this request on `array` by the policy table. */
export function assertRequestAllowed(
  method: HttpMethod,
  path: string,
  query: Readonly<Record<string, unknown>> | undefined,
  role: Role | undefined,
  array: string,
): void {
  const verdict = requestRule(method, path, query ?? {});
  if (!verdict) {
    throw new UserFacingError(
      "REQUEST_NOT_IN_POLICY",
      `${method} ${path} is not in the interface table, so nothing was sent to ${array}.`,
    );
  }
  if (verdict.role === "refuse") {
    throw new UserFacingError(
      "FORBIDDEN",
      `${method} ${path} with ${verdict.reason ?? "these parameters"}: the bot never sends it. Nothing was sent.`,
      { details: { need: "refused", have: role ?? "none", array } },
    );
  }
  if (!policyAllows(role, verdict.role)) {
    const why = verdict.reason ? ` (${verdict.reason})` : "";
    throw forbidden(`${method} ${path}${why}`, verdict.role, role, array);
  }
}

/**
 * Every planned request of an impact, checked before the card is shown. One meant for another array (`on`) is
 * checked here against the role on this one and again, for the role there, by that array's guarded client when
 * sent.
 */
export function assertPlannedAllowed(
  requests: readonly (PlannedCall & { on?: string })[],
  role: Role | undefined,
  array: string,
): void {
  for (const r of requests) assertRequestAllowed(r.method, r.path, r.query, role, r.on ?? array);
}

/** `client` as seen by someone whose role on it `roleOn` tells: every request checked before it is sent. */
export function guardClient(client: ArrayClient, roleOn: RoleOn): ArrayClient {
  const check = async (method: HttpMethod, path: string, query?: Query | PlannedCall["query"]) =>
    assertRequestAllowed(method, path, query, await roleOn(client), client.name);
  const core = {
    name: client.name,
    version: () => client.version(),
    supports: (v: string) => client.supports(v),
    async get<T>(path: string, opts?: RequestOptions<T>): Promise<Page<T>> {
      await check("GET", path, opts?.query);
      return client.get(path, opts);
    },
    iterate<T>(path: string, opts?: RequestOptions<T> & { pageSize?: number }): AsyncIterable<T> {
      return { [Symbol.asyncIterator]: () => checkedIterator(client, path, opts, check) };
    },
    async count(path: string, query?: Query): Promise<number> {
      await check("GET", path, query);
      return client.count(path, query);
    },
    async post<T>(path: string, opts?: WriteOptions<T>): Promise<T[]> {
      await check("POST", path, opts?.query);
      return client.post(path, opts);
    },
    async patch<T>(path: string, opts?: WriteOptions<T>): Promise<T[]> {
      await check("PATCH", path, opts?.query);
      return client.patch(path, opts);
    },
    async delete(path: string, opts?: { query?: Query }): Promise<void> {
      await check("DELETE", path, opts?.query);
      return client.delete(path, opts);
    },
    async send<T>(plan: PlannedCall, schema?: z.ZodType<T>): Promise<T[]> {
      await check(plan.method, plan.path, plan.query);
      return client.send(plan, schema);
    },
  };
  // The typed resource functions come from the prototype, built over this wrapper so they pass its checks.
  return Object.assign(Object.create(TYPED_APIS_PROTOTYPE) as ArrayClient, {
    ...core,
    tags: client.tags,
    ...(client.host === undefined ? {} : { host: client.host }),
    health: () => client.health(),
    check: () => client.check(),
    close: () => client.close(),
  });
}

/**
 * The client's own iterator, opened once the request is allowed: the check runs at the first `next()` (nothing is
 * sent before it), then every item comes straight from the client's iterator. An async generator with `yield*`
 * here cost two more promise turns per item, a fair part of a list's own cost (issue 27).
 */
function checkedIterator<T>(
  client: ArrayClient,
  path: string,
  opts: (RequestOptions<T> & { pageSize?: number }) | undefined,
  check: (method: HttpMethod, path: string, query?: Query) => Promise<void>,
): AsyncIterator<T> {
  let inner: AsyncIterator<T> | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  const open = async (): Promise<void> => {
    await check("GET", path, opts?.query);
    if (!closed) inner = client.iterate(path, opts)[Symbol.asyncIterator]();
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

/** The pool with every client it hands out guarded for the actor's role on that client's array. */
export function guardPool(pool: ArrayPool, roleOn: RoleOn): ArrayPool {
  return guardedPool(
    pool,
    wrapOnce((c) => guardClient(c, roleOn)),
  );
}
