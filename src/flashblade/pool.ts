/**
 * The set of configured arrays: one client (connection pool, session, limiter, health) per array, lookup by
 * name with did-you-mean, and selection specs such as "a,b", "all" or "tag:prod".
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ResolvedArrayConfig } from "../config/arrays.js";
import { editDistance, suggestionLimit } from "../edit-distance.js";
import { UserFacingError } from "../errors.js";
import { FlashBladeClient } from "./client.js";
import { ArrayConnection } from "./connection.js";
import { unknownArray } from "./errors.js";
import { type FleetMember, fleetMembersOf, memberConnection } from "./fleet-members.js";
import type { RetryPolicy } from "./retry.js";
import { SocketBudget } from "./socket-budget.js";
import type { ArrayClient, ArrayHealth, ArrayPool, PoolDeps } from "./types.js";

/** The defaults of the `array_pool` settings (src/config/schema.ts), for pools built without them. */
export const POOL_DEFAULTS = {
  maxSockets: 256,
  idleSocketMs: 4_000,
  idleSessionMs: 10 * 60_000,
  checkConcurrency: 16,
} as const;

/** Runs `fn` over `items`, at most `limit` at a time; settles when all have, never rejects. */
async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function suggestNames(input: string, names: readonly string[]): string[] {
  const needle = input.toLowerCase();
  const limit = suggestionLimit(needle);
  return (
    names
      .map((n) => {
        const lower = n.toLowerCase();
        let prefix = 0;
        while (prefix < needle.length && lower[prefix] === needle[prefix]) prefix++;
        return { n, d: editDistance(needle, lower), sub: lower.includes(needle), prefix };
      })
      .filter((x) => x.d <= limit || (needle.length >= 3 && x.sub))
      // Closest first; on a tie, the one sharing the longer prefix (people mistype ends more than starts).
      .sort((x, y) => x.d - y.d || y.prefix - x.prefix)
      .slice(0, 3)
      .map((x) => x.n)
  );
}

export function createArrayPool(
  arrays: readonly ResolvedArrayConfig[],
  deps: PoolDeps & { retry?: RetryPolicy },
): ArrayPool {
  const now = deps.now ?? Date.now;
  const budget = new SocketBudget(deps.maxSockets ?? POOL_DEFAULTS.maxSockets);
  const idleSessionMs = deps.idleSessionMs ?? POOL_DEFAULTS.idleSessionMs;
  const connDeps = {
    logger: deps.logger,
    now,
    transport: { budget, idleSocketMs: deps.idleSocketMs ?? POOL_DEFAULTS.idleSocketMs, now },
    random: deps.random ?? Math.random,
    sleep: deps.sleep ?? ((ms: number) => delay(ms)),
    ...(deps.retry ? { retry: deps.retry } : {}),
    ...(deps.onCall ? { onCall: deps.onCall } : {}),
    probeInBackground: deps.probeInBackground ?? true,
  };
  const conns = arrays.map((cfg) => new ArrayConnection(cfg, connDeps));
  const clients = conns.map((conn) => new FlashBladeClient(conn));
  const byName = new Map(clients.map((c) => [c.name.toLowerCase(), c]));
  const names = clients.map((c) => c.name);
  // Fleet members reached through a configured array, learned from what the fleets list (discover()).
  const members = new Map<string, { member: FleetMember; client?: ArrayClient }>();

  function member(key: string): ArrayClient | undefined {
    const found = members.get(key);
    if (!found) return undefined;
    const via = conns[clients.findIndex((c) => c.name === found.member.via)];
    if (!via) return undefined;
    found.client ??= new FlashBladeClient(memberConnection(via, found.member), found.member);
    return found.client;
  }

  function get(name: string): ArrayClient {
    const key = name.trim().toLowerCase();
    const client = byName.get(key) ?? member(key);
    if (!client) {
      const known = [...names, ...[...members.values()].map((m) => m.member.name)];
      throw unknownArray(
        name,
        suggestNames(name.trim(), known),
        names,
        [...members.values()].map((m) => m.member),
      );
    }
    return client;
  }

  /**
   * Asks every configured array on 2.17+ for its fleet's other members (a configured name keeps its array): when
   * `spec` names an array not configured, or always without one (`arrays list`).
   */
  async function discover(spec?: string): Promise<void> {
    const parts = spec?.split(",").map((p) => p.trim().toLowerCase());
    // A member learned before is reached again without asking (`arrays list` refreshes what is known).
    const unknown = parts?.some(
      (p) => p !== "" && p !== "all" && !p.startsWith("tag:") && !byName.has(p) && !members.has(p),
    );
    if (unknown === false) return;
    const found: FleetMember[] = [];
    await eachBounded(clients, checkConcurrency, async (c) => {
      found.push(...(await fleetMembersOf(c)));
    });
    for (const m of found.sort((a, b) => a.via.localeCompare(b.via))) {
      const key = m.name.toLowerCase();
      if (byName.has(key)) continue;
      const had = members.get(key);
      if (had?.member.via !== m.via || had.member.fleet !== m.fleet) members.set(key, { member: m });
    }
  }

  function select(spec: string): ArrayClient[] {
    const parts = spec
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    if (parts.length === 0) {
      throw new UserFacingError(
        "ARRAY_UNKNOWN",
        `Name an array (${names.join(", ")}), a tag (tag:prod) or "all".`,
      );
    }
    const chosen = new Set<ArrayClient>();
    for (const part of parts) {
      if (part.toLowerCase() === "all") {
        for (const c of clients) chosen.add(c);
      } else if (part.toLowerCase().startsWith("tag:")) {
        const tag = part.slice(4).trim().toLowerCase();
        const tagged = clients.filter((c) => c.tags.includes(tag));
        if (tagged.length === 0) {
          const tags = [...new Set(clients.flatMap((c) => c.tags))].sort();
          throw new UserFacingError(
            "ARRAY_UNKNOWN",
            `No array has the tag "${tag}". Tags in use: ${tags.join(", ") || "none"}.`,
            { suggestions: suggestNames(tag, tags).map((t) => `tag:${t}`) },
          );
        }
        for (const c of tagged) chosen.add(c);
      } else {
        chosen.add(get(part));
      }
    }
    return [...chosen];
  }

  async function sweepIdle(): Promise<number> {
    let ended = 0;
    await eachBounded(conns, checkConcurrency, async (c) => {
      if (await c.endIfIdle(idleSessionMs)) ended++;
    });
    return ended;
  }
  const checkConcurrency = deps.checkConcurrency ?? POOL_DEFAULTS.checkConcurrency;
  // One timer for the whole pool, not one per array: an idle array costs no timer.
  const sweeper = deps.sweepIdle
    ? setInterval(() => void sweepIdle(), Math.min(60_000, Math.max(1_000, idleSessionMs / 4)))
    : undefined;
  sweeper?.unref();

  return {
    list: () => [...clients],
    get,
    select,
    discover,
    fleetMembers: () => [...members.values()].map((m) => m.member),
    health: (): ArrayHealth[] => clients.map((c) => c.health()),
    async checkAll() {
      // Failures are what health records. A few at a time: a thousand arrays checked at once would open a
      // thousand sockets and logins in one burst (and queue behind the socket bound anyway).
      await eachBounded(clients, checkConcurrency, (c) => c.check());
    },
    sweepIdle,
    sockets: () => budget.stats(),
    async close() {
      clearInterval(sweeper);
      await Promise.allSettled(clients.map((c) => c.close()));
    },
  };
}
