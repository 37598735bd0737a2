import { groupQuotaSchema, userQuotaSchema } from "../schemas.js";
import type { Query, QuotaQuery, QuotasApi } from "../types.js";
import type { ClientCore } from "./core.js";

const query = (q: QuotaQuery = {}): Query => ({
  file_system_names: q.fileSystems,
  filter: q.filter,
  limit: q.limit,
});

export function quotasApi(c: ClientCore): QuotasApi {
  return {
    users: (q) => c.get("/quotas/users", { query: query(q), schema: userQuotaSchema }),
    groups: (q) => c.get("/quotas/groups", { query: query(q), schema: groupQuotaSchema }),
    userUsage: (q) => c.get("/usage/users", { query: query(q), schema: userQuotaSchema }),
    groupUsage: (q) => c.get("/usage/groups", { query: query(q), schema: groupQuotaSchema }),
  };
}
