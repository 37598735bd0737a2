import { eq } from "../filter.js";
import { fileSystemSchema } from "../schemas.js";
import type { FileSystemCreate, FileSystemPatch, FileSystemsApi, ListQuery } from "../types.js";
import { fileSystemCreateBody, fileSystemDestroy, fileSystemPatchBody, selectOne } from "../wire.js";
import { type ClientCore, single } from "./core.js";

const PATH = "/file-systems";
const schema = fileSystemSchema;

export function fileSystemsApi(c: ClientCore): FileSystemsApi {
  const list = (q: ListQuery = {}) =>
    c.get(PATH, { query: { names: q.names, filter: q.filter, sort: q.sort, limit: q.limit }, schema });

  const update = async (name: string, patch: FileSystemPatch, opts: { ignoreUsage?: boolean } = {}) => {
    const version = await c.version();
    const body = fileSystemPatchBody(c.name, version, patch);
    const query = {
      ...selectOne(c.name, version, PATH, { name }),
      ignore_usage: opts.ignoreUsage || undefined,
    };
    return single(c.name, PATH, await c.patch(PATH, { query, body, schema }));
  };

  return {
    list,
    async get(name) {
      // A filter rather than `names=`: a missing name is an empty list, not a 400 to tell apart from others.
      // Comparisons are case-insensitive on the array, so pick the exact match here.
      const page = await list({ filter: eq("name", name) });
      return page.items.find((fs) => fs.name === name);
    },
    async create(create: FileSystemCreate) {
      const body = fileSystemCreateBody(c.name, await c.version(), create);
      return single(c.name, PATH, await c.post(PATH, { body, schema }));
    },
    update,
    async destroy(name, opts = {}) {
      const { query, body } = fileSystemDestroy(c.name, await c.version(), name, opts);
      return single(c.name, PATH, await c.patch(PATH, { query, body, schema }));
    },
    recover: (name) => update(name, { destroyed: false }),
    async eradicate(name) {
      const version = await c.version();
      await c.delete(PATH, { query: selectOne(c.name, version, PATH, { name }) });
    },
  };
}
