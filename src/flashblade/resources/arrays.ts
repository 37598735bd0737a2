import {
  arrayInfoSchema,
  arrayPerformanceSchema,
  arraySpaceSchema,
  replicationPerformanceSchema,
} from "../schemas.js";
import type { ArraysApi } from "../types.js";
import { replicationMetrics } from "../wire.js";
import { type ClientCore, single } from "./core.js";

/**
 * Kept because commands use them: `space` (space, diagnose, the capacity forecast), `performance` (perf,
 * diagnose), `replicationPerformance` (replication perf: its field differs by version), `info` (policy update).
 */
export function arraysApi(c: ClientCore): ArraysApi {
  return {
    async info() {
      return single(c.name, "/arrays", (await c.get("/arrays", { schema: arrayInfoSchema })).items);
    },
    async space(type) {
      const page = await c.get("/arrays/space", { query: { type }, schema: arraySpaceSchema });
      return single(c.name, "/arrays/space", page.items);
    },
    async replicationPerformance(type) {
      const page = await c.get("/arrays/performance/replication", {
        query: { type },
        schema: replicationPerformanceSchema,
      });
      return page.items.map((item) => {
        const throughput = replicationMetrics(item);
        return throughput === undefined ? item : { ...item, throughput };
      });
    },
    async performance(protocol) {
      const page = await c.get("/arrays/performance", {
        query: { protocol },
        schema: arrayPerformanceSchema,
      });
      return single(c.name, "/arrays/performance", page.items);
    },
  };
}
