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
import type { RetryPolicy } from "./retry.js";
import type { ArrayClient, ArrayHealth, ArrayPool, PoolDeps } from "./types.js";

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
  const connDeps = {
    logger: deps.logger,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
    sleep: deps.sleep ?? ((ms: number) => delay(ms)),
    ...(deps.retry ? { retry: deps.retry } : {}),
    ...(deps.onCall ? { onCall: deps.onCall } : {}),
    probeInBackground: deps.probeInBackground ?? true,
  };
  const clients = arrays.map((cfg) => new FlashBladeClient(new ArrayConnection(cfg, connDeps)));
  const byName = new Map(clients.map((c) => [c.name.toLowerCase(), c]));
  const names = clients.map((c) => c.name);

  function get(name: string): ArrayClient {
    const client = byName.get(name.trim().toLowerCase());
    if (!client) throw unknownArray(name, suggestNames(name.trim(), names), names);
    return client;
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

  return {
    list: () => [...clients],
    get,
    select,
    health: (): ArrayHealth[] => clients.map((c) => c.health()),
    async checkAll() {
      // Failures are what health records; nobody waits on this for an answer.
      await Promise.allSettled(clients.map((c) => c.check()));
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
    },
  };
}
