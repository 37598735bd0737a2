/**
 * THE list of resources: the only input of the command registry. Add a resource by importing it here; the
 * registry checks every definition at start-up, including that each command declares what it sends (`endpoints`,
 * in its own definition; the catalogue's verbs from their data) with a role the access policy allows for each.
 */
import type { ResourceDefinition } from "../src/core/catalogue/define-command.js";
import { accessResource } from "./access.js";
import { alertResource } from "./alert.js";
import { apiResource } from "./api.js";
import { arraysResource } from "./arrays.js";
import { breakGlassResource } from "./audit-break-glass.js";
import { CATALOGUE_RESOURCES } from "./catalogue/index.js";
import { diagnoseResource } from "./diagnose/index.js";
import { fsResource } from "./fs/index.js";
import { historyResource } from "./history.js";
import { perfResource } from "./perf.js";
import { policyResource } from "./policy/index.js";
import { quotaResource } from "./quota/index.js";
import { replicationResource } from "./replication/index.js";
import { snapshotResource } from "./snapshot/index.js";
import { spaceResource } from "./space.js";
import { usageResource } from "./usage.js";

export const RESOURCES: readonly ResourceDefinition[] = [
  fsResource,
  snapshotResource,
  arraysResource,
  spaceResource,
  perfResource,
  alertResource,
  quotaResource,
  usageResource,
  policyResource,
  diagnoseResource,
  historyResource,
  accessResource,
  breakGlassResource,
  ...CATALOGUE_RESOURCES,
  apiResource,
  // Replication status is a noun of its own; the other hand-written replication and object-store resources join
  // the catalogue's nouns (HAND_WRITTEN in commands/catalogue).
  replicationResource,
];
