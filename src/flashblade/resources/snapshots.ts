import { eq } from "../filter.js";
import { snapshotSchema } from "../schemas.js";
import type { SnapshotsApi } from "../types.js";
import { SNAPSHOT_NAMES_PARAM, selectOne, snapshotCreate } from "../wire.js";
import { type ClientCore, single } from "./core.js";

const PATH = "/file-system-snapshots";
const schema = snapshotSchema;

export function snapshotsApi(c: ClientCore): SnapshotsApi {
  const setDestroyed = async (name: string, destroyed: boolean) => {
    const version = await c.version();
    const query = selectOne(c.name, version, PATH, { name });
    return single(c.name, PATH, await c.patch(PATH, { query, body: { destroyed }, schema }));
  };

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
      const version = await c.version();
      await c.delete(PATH, { query: selectOne(c.name, version, PATH, { name }) });
    },
  };
}
