/** The alert engine's source backed by the array session pool (sessions, retries, limiter, paging). */
import { capacityForecast } from "../core/forecast/capacity.js";
import { alertSchema } from "../flashblade/schemas.js";
import type { ArrayPool, Query } from "../flashblade/types.js";
import { atLeast, generationOf } from "../rest-spec/versions.js";
import type { AlertQuery, AlertSource, RawAlert } from "./types.js";

/** /alerts appeared in REST 1.2. */
const ALERTS_SINCE = "1.2";

export function poolAlertSource(pool: ArrayPool): AlertSource {
  return {
    arrays: () => pool.list().map((c) => ({ name: c.name, tags: c.tags })),
    async list(array: string, q: AlertQuery): Promise<RawAlert[]> {
      const client = pool.get(array);
      const query: Query = { filter: q.filter, sort: q.sort, limit: q.limit, names: q.names };
      if (q.limit !== undefined) {
        return (await client.get<RawAlert>("/alerts", { query, schema: alertSchema })).items;
      }
      const out: RawAlert[] = [];
      for await (const a of client.iterate<RawAlert>("/alerts", { query, schema: alertSchema })) out.push(a);
      return out;
    },
    async setFlagged(array, name, flagged) {
      await pool.get(array).patch("/alerts", { query: { names: [name] }, body: { flagged } });
    },
    supportsAlerts: (array) => pool.get(array).supports(ALERTS_SINCE),
    async certificates(array) {
      const out: { name: string; validTo: number }[] = [];
      for await (const c of pool.get(array).iterate<Record<string, unknown>>("/certificates", {})) {
        const validTo = Number(c["valid_to"]);
        if (typeof c["name"] === "string" && validTo > 0) out.push({ name: c["name"], validTo });
      }
      return out;
    },
    async maintenanceWindows(array) {
      const client = pool.get(array);
      const version = await client.version();
      // A family only REST 2.16+ has: nothing to read, and no call, on other arrays.
      if (generationOf(version) !== 2 || !atLeast(version, "2.16")) return [];
      const out: { name: string; start: number; end: number }[] = [];
      for await (const w of client.iterate<Record<string, unknown>>("/maintenance-windows", {})) {
        const [name, start, end] = [w["name"], Number(w["created"]), Number(w["expires"])];
        if (typeof name === "string" && end > 0)
          out.push({ name, start: Number.isFinite(start) ? start : 0, end });
      }
      return out;
    },
    capacityForecast: (array, windowMs) => capacityForecast(pool.get(array), { windowMs, now: Date.now }),
    async probe(array) {
      // Every version serves /file-systems; one item is enough to prove the array answers.
      await pool.get(array).get("/file-systems", { query: { limit: 1 } });
    },
  };
}
