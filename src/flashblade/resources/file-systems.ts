import { eq } from "../filter.js";
import { fileSystemSchema } from "../schemas.js";
import type {
  FileSystemCreate,
  FileSystemPatch,
  FileSystemsApi,
  FileSystemUpdateOptions as UpdateOptions,
} from "../types.js";
import {
  fileSystemCreateBody,
  fileSystemDestroy,
  fileSystemPatchBody,
  fileSystemUpdateQuery,
} from "../wire.js";
import { type ClientCore, plan } from "./core.js";

const PATH = "/file-systems";
const schema = fileSystemSchema;

/**
 * Kept because commands use them: `get` (fs create/destroy/show, space forecast), `destroyed` (space), and the
 * planners of fs create, update, resize and destroy, whose bodies and queries differ by version. Nothing here
 * sends a change: a plan is shown on the card and sent by the pipeline, as planned, through the client's `send`.
 */
export function fileSystemsApi(c: ClientCore): FileSystemsApi {
  // `destroyed` exists from 1.1; on 1.0 nothing can be destroyed.
  const hasDestroyed = () => c.supports("1.1");
  return {
    async get(name) {
      // A filter rather than `names=`: a missing name is an empty list, not a 400 to tell apart from others.
      // Comparisons are case-insensitive on the array, so pick the exact match here.
      const page = await c.get(PATH, { query: { filter: eq("name", name) }, schema });
      return page.items.find((fs) => fs.name === name);
    },
    async *destroyed() {
      if (!(await hasDestroyed())) return;
      yield* c.iterate(PATH, { query: { filter: eq("destroyed", true) }, schema });
    },
    async planCreate(create: FileSystemCreate) {
      return plan("POST", PATH, {}, fileSystemCreateBody(c.name, await c.version(), create));
    },
    async planUpdate(name: string, patch: FileSystemPatch, opts: UpdateOptions = {}) {
      const version = await c.version();
      const body = fileSystemPatchBody(c.name, version, patch);
      return plan("PATCH", PATH, fileSystemUpdateQuery(c.name, version, name, opts), body);
    },
    async planDestroy(name: string, opts: { deleteLinkOnEradication?: boolean } = {}) {
      const { query, body } = fileSystemDestroy(c.name, await c.version(), name, opts);
      return plan("PATCH", PATH, query, body);
    },
  };
}
