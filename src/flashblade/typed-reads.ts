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

export abstract class TypedReads {
  #fileSystems?: FileSystemsApi;
  #snapshots?: SnapshotsApi;
  #alerts?: AlertsApi;
  #arrays?: ArraysApi;
  #replicaLinks?: ReplicaLinksApi;

  /** The generic calls the typed reads are built over (the subclass's own). */
  protected abstract core(): ClientCore;

  get fileSystems(): FileSystemsApi {
    this.#fileSystems ??= fileSystemsApi(this.core());
    return this.#fileSystems;
  }
  get snapshots(): SnapshotsApi {
    this.#snapshots ??= snapshotsApi(this.core());
    return this.#snapshots;
  }
  get alerts(): AlertsApi {
    this.#alerts ??= alertsApi(this.core());
    return this.#alerts;
  }
  get arrays(): ArraysApi {
    this.#arrays ??= arraysApi(this.core());
    return this.#arrays;
  }
  get replicaLinks(): ReplicaLinksApi {
    this.#replicaLinks ??= replicaLinksApi(this.core());
    return this.#replicaLinks;
  }
}
