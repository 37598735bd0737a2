import { bucketSchema } from "../schemas.js";
import type { BucketsApi } from "../types.js";
import { bucketCreate } from "../wire.js";
import { type ClientCore, single } from "./core.js";

const PATH = "/buckets";

export function bucketsApi(c: ClientCore): BucketsApi {
  return {
    list(q = {}) {
      return c.get(PATH, {
        query: { names: q.names, filter: q.filter, sort: q.sort, limit: q.limit },
        schema: bucketSchema,
      });
    },
    async create(name, account) {
      const { query, body } = bucketCreate(await c.version(), name, account);
      return single(c.name, PATH, await c.post(PATH, { query, body, schema: bucketSchema }));
    },
  };
}
