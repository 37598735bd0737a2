import { defineResource } from "../../src/core/define-command.js";
import { bucketLinkCreate, bucketLinkList, bucketLinkPause, bucketLinkResume } from "./bucket-link.js";
import { bucketLinkCredentials, bucketLinkDelete } from "./bucket-link-change.js";
import { replicationStatus } from "./status.js";

export const replicationResource = defineResource({
  name: "replication",
  aliases: ["repl"],
  summary: "Are we protected? Replica link lag against each link's interval, and what nothing protects",
  defaultVerb: "status",
  commands: [replicationStatus],
});

export const bucketLinkResource = defineResource({
  name: "bucket-link",
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
