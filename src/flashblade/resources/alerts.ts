import { alertSchema } from "../schemas.js";
import type { AlertsApi } from "../types.js";
import { type ClientCore, single } from "./core.js";

const PATH = "/alerts";

export function alertsApi(c: ClientCore): AlertsApi {
  return {
    list(q = {}) {
      return c.get(PATH, { query: { filter: q.filter, sort: q.sort, limit: q.limit }, schema: alertSchema });
    },
    async setFlagged(name, flagged) {
      const items = await c.patch(PATH, { query: { names: [name] }, body: { flagged }, schema: alertSchema });
      return single(c.name, PATH, items);
    },
  };
}
