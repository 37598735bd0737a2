import { arrayInfoSchema, arrayPerformanceSchema, arraySpaceSchema } from "../schemas.js";
import type { ArraysApi } from "../types.js";
import { type ClientCore, single } from "./core.js";

export function arraysApi(c: ClientCore): ArraysApi {
  return {
    async info() {
      return single(c.name, "/arrays", (await c.get("/arrays", { schema: arrayInfoSchema })).items);
    },
    async space(type) {
      const page = await c.get("/arrays/space", { query: { type }, schema: arraySpaceSchema });
      return single(c.name, "/arrays/space", page.items);
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
