import { eq } from "../filter.js";
import { type FileSystemReplicaLink, fileSystemReplicaLinkSchema } from "../schemas.js";
import type { ReplicaLinksApi } from "../types.js";
import type { ClientCore } from "./core.js";

const PATH = "/file-system-replica-links";

/** Kept because commands use it: fs show, fs update, policy attach and replica-link create read a file system's links. */
export function replicaLinksApi(c: ClientCore): ReplicaLinksApi {
  return {
    async forFileSystem(name) {
      // Replication arrived in 1.9; older arrays simply have no links.
      if (!(await c.supports("1.9"))) return [];
      const out: FileSystemReplicaLink[] = [];
      // A filter, not local_file_system_names=: that parameter turns "no links" into a 400.
      const query = { filter: eq("local_file_system.name", name) };
      for await (const link of c.iterate(PATH, { query, schema: fileSystemReplicaLinkSchema })) {
        if (link.local_file_system?.name === name) out.push(link);
      }
      return out;
    },
  };
}
