/** Catalogue: Replication — array connections, replica links, targets, remote credentials, transfers. */
import { remoteCredentialsDeleteCheck } from "../replication/remote-credentials.js";
import type { NounSpec } from "./spec.js";

const REMOTE = { param: "remote_names", label: "remote" };
const LOCAL_FS = { param: "local_file_system_names", label: "file-system" };
const LOCAL_BUCKET = { param: "local_bucket_names", label: "bucket" };

export const REPLICATION: readonly NounSpec[] = [
  {
    noun: "array-connection",
    aliases: ["connection"],
    area: "Replication",
    summary: "Connections to remote arrays for replication",
    path: "/array-connections",
    columns: ["remote.name", "management_address", "status", "encrypted", "version"],
    select: [REMOTE],
    createSelect: [],
    units: { status: "status" },
    writable: ["management_address", "replication_addresses", "encrypted"],
    cutsOff: "Replication to and from this array goes through this connection.",
    examples: {
      list: "",
      show: "fb-dr-01",
      create: "--management-address 10.51.0.20",
      update: "fb-lab-02 --replication-addresses 10.41.0.50",
      delete: "fb-lab-02",
    },
    extra: [
      {
        verb: "paths",
        method: "GET",
        path: "/array-connections/path",
        summary: "Network paths of each connection and their status",
      },
    ],
  },
  {
    noun: "array-connection key",
    area: "Replication",
    kind: "singleton",
    summary: "The key a remote array needs to connect to this one",
    path: "/array-connections/connection-key",
    columns: ["created", "expires"],
    units: { created: "timestamp", expires: "timestamp" },
    roles: { show: "admin", create: "admin" },
  },
  {
    noun: "replica-link fs",
    aliases: ["fs-replica-link"],
    area: "Replication",
    summary: "File system replica links: direction, lag, status",
    path: "/file-system-replica-links",
    columns: [
      "local_file_system.name",
      "remote.name",
      "remote_file_system.name",
      "direction",
      "status",
      "lag",
    ],
    select: [LOCAL_FS, REMOTE],
    createSelect: [LOCAL_FS, REMOTE, { param: "remote_file_system_names", label: "remote-file-system" }],
    units: { lag: "ms", recovery_point: "timestamp", status: "status" },
    writable: [],
    // REST 2.17 starts a transfer now (PATCH replicate_now) and 2.10 deletes a link, optionally cancelling the
    // transfers under way: both are query options of the link's own path, not body fields.
    rest2Methods: ["PATCH", "DELETE"],
    // As the access policy has it: an admin's, and deleting stops replication (its own class).
    roles: { update: "admin", delete: "admin" },
    classes: { update: "array_settings", delete: "delete_replication" },
    queryOptions: {
      update: [
        { param: "replicate_now", help: "send a snapshot to the target now, outside the policy's schedule" },
      ],
      delete: [
        { param: "cancel_in_progress_transfers", help: "cancel the transfers under way instead of waiting" },
      ],
    },
    summaries: {
      update: "Replicate a file system now, outside its policy's schedule (--replicate-now; REST 2.17+)",
      delete: "Delete a file system replica link: replication stops (REST 2.10+); gated",
    },
    examples: {
      list: "",
      show: "projects fb-dr-01",
      create: "vm-images fb-dr-01 vm-images",
      update: "projects fb-dr-01 --replicate-now",
      delete: "projects fb-dr-01 --cancel-in-progress-transfers",
    },
    extra: [
      {
        verb: "transfers",
        method: "GET",
        path: "/file-system-replica-links/transfer",
        summary: "Snapshot transfers of file system replica links",
        select: [],
      },
    ],
  },
  {
    noun: "replica-link fs policy",
    area: "Replication",
    kind: "relation",
    summary: "Which policies drive a file system replica link",
    path: "/file-system-replica-links/policies",
    columns: ["member.name", "policy.name", "remote.name"],
    select: [LOCAL_FS, { param: "policy_names", label: "policy" }, REMOTE],
    examples: { list: "", add: "ml-datasets daily fb-lab-02", remove: "projects daily fb-dr-01" },
  },
  {
    noun: "replica-link bucket",
    area: "Replication",
    summary: "Bucket replica links: pause, resume, status",
    path: "/bucket-replica-links",
    columns: ["local_bucket.name", "remote.name", "remote_bucket.name", "paused", "status", "lag"],
    select: [LOCAL_BUCKET, { param: "remote_bucket_names", label: "remote-bucket" }],
    createSelect: [
      LOCAL_BUCKET,
      { param: "remote_bucket_names", label: "remote-bucket" },
      { param: "remote_credentials_names", label: "credentials" },
    ],
    units: { lag: "ms", recovery_point: "timestamp", status: "status" },
    writable: ["paused"],
    classes: { update: "pause_replication" },
    examples: {
      list: "",
      show: "veeam-repo veeam-repo",
      create: "analytics-raw analytics-raw fb-dr-01/repl-creds",
      update: "analytics-curated analytics-curated --paused",
      delete: "analytics-raw analytics-raw",
    },
  },
  {
    noun: "snapshot transfer",
    area: "Replication",
    kind: "collection",
    summary: "Snapshots being sent to or received from remote arrays",
    path: "/file-system-snapshots/transfer",
    columns: ["name", "direction", "progress", "started", "completed", "remote.name"],
    select: [{ param: "names", label: "snapshot" }, REMOTE],
    units: { started: "timestamp", completed: "timestamp", progress: "percent" },
    examples: { list: "", delete: "home.before-upgrade fb-dr-01" },
  },
  {
    noun: "target",
    area: "Replication",
    summary: "S3 targets that file systems replicate to",
    path: "/targets",
    columns: ["name", "address", "status"],
    units: { status: "status" },
    writable: ["address"],
    // The list says each target's status as the array does, with its details, and is ordered and limited by the
    // options every list has.
    listing: {
      noun: "S3 target",
      empty: "No S3 targets on {where}.",
      labels: { name: "Target" },
      filename: "targets.csv",
      arrayKey: "array",
      options: [],
      needs: "The replication API",
      units: {},
      detail: { status: "status_details" },
    },
    summaries: { list: "S3 targets and whether the array reaches them" },
    moreExamples: { list: ["--array all"] },
    examples: {
      list: "",
      show: "aws-archive",
      create: "wasabi --address s3.wasabisys.com",
      update: "wasabi --address s3.eu-central-1.wasabisys.com",
      delete: "wasabi",
    },
  },
  {
    noun: "remote-credentials",
    aliases: ["remote-credential"],
    area: "Replication",
    summary: "Credentials for replicating buckets to a remote array or target",
    path: "/object-store-remote-credentials",
    columns: ["name", "access_key_id", "remote.name", "created"],
    units: { created: "timestamp" },
    writable: ["access_key_id"],
    title: "remote credentials",
    roles: { delete: "admin" },
    summaries: { delete: "Delete remote credentials no bucket replica link uses; gated" },
    precheck: { delete: remoteCredentialsDeleteCheck },
    examples: {
      list: "",
      show: "fb-dr-01/repl-creds",
      create: "fb-dr-01/new-creds --access-key-id PSFBAKEXAMPLE",
      update: "fb-dr-01/repl-creds --access-key-id PSFBAKEXAMPLE2",
      // No link uses these; a bucket replica link uses repl-creds, so deleting them is refused.
      delete: "fb-dr-01/old-creds",
    },
  },
];
