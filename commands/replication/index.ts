import { defineResource } from "../../src/core/catalogue/define-command.js";
import {
  arrayConnectionCreate,
  arrayConnectionDelete,
  arrayConnectionList,
  connectionKeyCreate,
} from "./array-connection.js";
import { bucketLinkCreate, bucketLinkList } from "./bucket-link.js";
import {
  bucketLinkCredentials,
  bucketLinkDelete,
  bucketLinkPause,
  bucketLinkResume,
} from "./bucket-link-change.js";
import { fsLinkCreate, fsLinkList } from "./fs-link.js";
import { replicationPerf } from "./perf.js";
import {
  remoteCredentialsCreate,
  remoteCredentialsList,
  remoteCredentialsRotate,
} from "./remote-credentials.js";
import { replicationStatus } from "./status.js";
import { targetCreate, targetDelete, targetUpdate } from "./target.js";

export const replicationResource = defineResource({
  name: "replication",
  area: "Replication",
  aliases: ["repl"],
  summary: "Are we protected? Replica link lag against each link's interval, and what nothing protects",
  defaultVerb: "status",
  commands: [replicationStatus, replicationPerf],
});

export const bucketLinkResource = defineResource({
  name: "bucket-link",
  area: "Replication",
  aliases: ["bucket-links", "bucket-replica-link", "bucket-replica-links"],
  summary: "Bucket replica links: where each bucket replicates, and stopping or restarting it",
  commands: [
    bucketLinkList,
    bucketLinkCreate,
    bucketLinkPause,
    bucketLinkResume,
    bucketLinkCredentials,
    bucketLinkDelete,
  ],
});

export const arrayConnectionResource = defineResource({
  name: "array-connection",
  aliases: ["array-connections", "connection", "connections"],
  summary: "Connections between arrays, which replica links travel over",
  commands: [arrayConnectionList, arrayConnectionCreate, arrayConnectionDelete],
});

export const connectionKeyResource = defineResource({
  name: "connection-key",
  area: "Replication",
  aliases: ["connection-keys"],
  summary: "The key another array needs to connect to this one, shown once",
  commands: [connectionKeyCreate],
});

export const remoteCredentialsResource = defineResource({
  name: "remote-credentials",
  aliases: ["remote-credential", "object-store-remote-credentials"],
  summary: "The S3 keys bucket replica links write to the remote with (secrets never shown)",
  commands: [remoteCredentialsList, remoteCredentialsCreate, remoteCredentialsRotate],
});

export const fsLinkResource = defineResource({
  name: "fs-link",
  area: "Replication",
  aliases: ["fs-links", "file-system-replica-link", "file-system-replica-links"],
  summary: "File system replica links and the snapshots they send",
  commands: [fsLinkList, fsLinkCreate],
});

export const targetResource = defineResource({
  name: "target",
  aliases: ["targets", "s3-target", "s3-targets"],
  summary: "S3 targets that buckets can replicate to besides FlashBlades",
  commands: [targetCreate, targetUpdate, targetDelete],
});
