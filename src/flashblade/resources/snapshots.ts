import { eq } from "../filter.js";
import { snapshotSchema } from "../schemas.js";
import type { SnapshotsApi } from "../types.js";
import type { ClientCore } from "./core.js";

const PATH = "/file-system-snapshots";

/** Kept because commands use it: `get` (snapshot create, and the snapshot lifecycle verbs' read). */
export function snapshotsApi(c: ClientCore): SnapshotsApi {
  return {
    async get(name) {
      const page = await c.get(PATH, { query: { filter: eq("name", name) }, schema: snapshotSchema });
      return page.items.find((s) => s.name === name);
    },
  };
}
