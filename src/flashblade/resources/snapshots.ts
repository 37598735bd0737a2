import { eq } from "../filter.js";
import { snapshotSchema } from "../schemas.js";
import type { SnapshotsApi } from "../types.js";
import { SNAPSHOT_NAMES_PARAM, selectOne, snapshotCreate } from "../wire.js";
import { type ClientCore, plan, single } from "./core.js";

const PATH = "/file-system-snapshots";
const schema = snapshotSchema;

export function snapshotsApi(c: ClientCore): SnapshotsApi {
  const planSetDestroyed = async (name: string, destroyed: boolean) =>
    plan("PATCH", PATH, selectOne(c.name, await c.version(), PATH, { name }), { destroyed });
  const planEradicate = async (name: string) =>
    plan("DELETE", PATH, selectOne(c.name, await c.version(), PATH, { name }));
  const setDestroyed = async (name: string, destroyed: boolean) =>
    single(c.name, PATH, await c.send(await planSetDestroyed(name, destroyed), schema));

  return {
    list(q = {}) {
      const selected = [...(q.names ?? []), ...(q.sources ?? [])];
      return c.get(PATH, {
        query: {
          [SNAPSHOT_NAMES_PARAM]: selected.length > 0 ? selected : undefined,
          filter: q.filter,
          sort: q.sort,
          limit: q.limit,
        },
        schema,
      });
    },
    async get(name) {
      const page = await c.get(PATH, { query: { filter: eq("name", name) }, schema });
      return page.items.find((s) => s.name === name);
    },
    async create(sources, suffix) {
      const { query, body } = snapshotCreate(sources, suffix);
      return c.post(PATH, { query, body, schema });
    },
    destroy: (name) => setDestroyed(name, true),
    recover: (name) => setDestroyed(name, false),
    async eradicate(name) {
      await c.send(await planEradicate(name));
    },
  };
}
