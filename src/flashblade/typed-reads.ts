/**
 * The typed reads commands use (`client.fileSystems.get(name)`, `client.arrays.space()`), for every client:
 * the array's own and the interceptor a command is handed. Each is built over the client's generic calls, so
 * what it sends passes whatever that client checks, and only when first read: most commands (every catalogue
 * verb) never touch them, and building them all for each command's context was a measurable part of a list's
 * own cost (issue 27).
 */
import { alertsApi } from "./resources/alerts.js";
import { arraysApi } from "./resources/arrays.js";
import type { ClientCore } from "./resources/core.js";
import { fileSystemsApi } from "./resources/file-systems.js";
import { replicaLinksApi } from "./resources/replication.js";
import { snapshotsApi } from "./resources/snapshots.js";
import type { AlertsApi, ArraysApi, FileSystemsApi, ReplicaLinksApi, SnapshotsApi } from "./types.js";

/** What each typed read is built from. */
const MAKERS = {
  fileSystems: fileSystemsApi,
  snapshots: snapshotsApi,
  alerts: alertsApi,
  arrays: arraysApi,
  replicaLinks: replicaLinksApi,
};
type Reads = { [K in keyof typeof MAKERS]: ReturnType<(typeof MAKERS)[K]> };

export abstract class TypedReads {
  readonly #built: Partial<Reads> = {};

  /** The generic calls the typed reads are built over (the subclass's own). */
  protected abstract core(): ClientCore;

  #read<K extends keyof Reads>(key: K): Reads[K] {
    this.#built[key] ??= MAKERS[key](this.core()) as Reads[K];
    return this.#built[key] as Reads[K];
  }

  get fileSystems(): FileSystemsApi {
    return this.#read("fileSystems");
  }
  get snapshots(): SnapshotsApi {
    return this.#read("snapshots");
  }
  get alerts(): AlertsApi {
    return this.#read("alerts");
  }
  get arrays(): ArraysApi {
    return this.#read("arrays");
  }
  get replicaLinks(): ReplicaLinksApi {
    return this.#read("replicaLinks");
  }
}
