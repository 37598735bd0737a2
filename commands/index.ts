/**
 * THE list of resources: the only input of the command registry. Add a resource by importing it here; the
 * registry checks every definition at start-up.
 */
import type { ResourceDefinition } from "../src/core/define-command.js";
import { alertResource } from "./alert.js";
import { arraysResource } from "./arrays.js";
import { fsResource } from "./fs/index.js";
import {
  accessKeyResource,
  accountResource,
  bucketResource,
  lifecycleResource,
  objectUserResource,
  virtualHostResource,
} from "./object-store/index.js";
import { perfResource } from "./perf.js";
import { policyResource } from "./policy/index.js";
import { quotaResource } from "./quota/index.js";
import {
  arrayConnectionResource,
  bucketLinkResource,
  connectionKeyResource,
  fsLinkResource,
  remoteCredentialsResource,
  replicationResource,
  targetResource,
} from "./replication/index.js";
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
  replicationResource,
  bucketLinkResource,
  accessKeyResource,
  arrayConnectionResource,
  connectionKeyResource,
  remoteCredentialsResource,
  fsLinkResource,
  targetResource,
  bucketResource,
  accountResource,
  lifecycleResource,
  objectUserResource,
  virtualHostResource,
];
