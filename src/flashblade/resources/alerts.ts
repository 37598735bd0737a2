import { alertSchema } from "../schemas.js";
import type { AlertsApi } from "../types.js";
import type { ClientCore } from "./core.js";

/** Kept because a command uses it: `diagnose` reads the open alerts. */
export function alertsApi(c: ClientCore): AlertsApi {
  return {
    list(q = {}) {
      return c.get("/alerts", {
        query: { filter: q.filter, sort: q.sort, limit: q.limit },
        schema: alertSchema,
      });
    },
  };
}
