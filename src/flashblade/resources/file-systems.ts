import { eq } from "../filter.js";
import { fileSystemSchema } from "../schemas.js";
import type {
  FileSystemCreate,
  FileSystemPatch,
  FileSystemsApi,
  ListQuery,
  FileSystemUpdateOptions as UpdateOptions,
} from "../types.js";
import {
  fileSystemCreateBody,
  fileSystemDestroy,
  fileSystemPatchBody,
  fileSystemUpdateQuery,
  selectOne,
} from "../wire.js";
import { type ClientCore, plan, single } from "./core.js";

const PATH = "/file-systems";
const schema = fileSystemSchema;

export function fileSystemsApi(c: ClientCore): FileSystemsApi {
  const list = (q: ListQuery = {}) =>
    c.get(PATH, { query: { names: q.names, filter: q.filter, sort: q.sort, limit: q.limit }, schema });

  const planUpdate = async (name: string, patch: FileSystemPatch, opts: UpdateOptions = {}) => {
    const version = await c.version();
    const body = fileSystemPatchBody(c.name, version, patch);
    return plan("PATCH", PATH, fileSystemUpdateQuery(c.name, version, name, opts), body);
  };
  const planCreate = async (create: FileSystemCreate) =>
    plan("POST", PATH, {}, fileSystemCreateBody(c.name, await c.version(), create));
  const planDestroy = async (name: string, opts: { deleteLinkOnEradication?: boolean } = {}) => {
    const { query, body } = fileSystemDestroy(c.name, await c.version(), name, opts);
    return plan("PATCH", PATH, query, body);
  };
  const planEradicate = async (name: string) =>
    plan("DELETE", PATH, selectOne(c.name, await c.version(), PATH, { name }));

  const update = async (name: string, patch: FileSystemPatch, opts: UpdateOptions = {}) =>
    single(c.name, PATH, await c.send(await planUpdate(name, patch, opts), schema));
  // `destroyed` exists from 1.1; on 1.0 nothing can be destroyed.
  const hasDestroyed = () => c.supports("1.1");

  return {
    list,
    async get(name) {
      // A filter rather than `names=`: a missing name is an empty list, not a 400 to tell apart from others.
      // Comparisons are case-insensitive on the array, so pick the exact match here.
      const page = await list({ filter: eq("name", name) });
      return page.items.find((fs) => fs.name === name);
    },
    async *destroyed() {
      if (!(await hasDestroyed())) return;
      yield* c.iterate(PATH, { query: { filter: eq("destroyed", true) }, schema });
    },
    planCreate,
    planUpdate,
    planDestroy,
    async create(create: FileSystemCreate) {
      return single(c.name, PATH, await c.send(await planCreate(create), schema));
    },
    update,
    async destroy(name, opts = {}) {
      return single(c.name, PATH, await c.send(await planDestroy(name, opts), schema));
    },
    recover: (name) => update(name, { destroyed: false }),
    async eradicate(name) {
      await c.send(await planEradicate(name));
    },
  };
}
