/**
 * Catalogue: Insight — performance per protocol, client, file system, user, group, bucket and replication
 * relationship. (`perf`, `space` and `usage` are hand-written; these are the current samples.)
 */
import type { NounSpec } from "./spec.js";

const RATES = [
  "name",
  "reads_per_sec",
  "writes_per_sec",
  "read_bytes_per_sec",
  "write_bytes_per_sec",
  "usec_per_read_op",
  "usec_per_write_op",
];
const BYTES = { read_bytes_per_sec: "size", write_bytes_per_sec: "size" } as const;
// Replication throughput is under `async` in 1.x and `periodic` in 2.x: a column reads whichever is there.
const SENT = "periodic.transmitted_bytes_per_sec|async.transmitted_bytes_per_sec";
const RECEIVED = "periodic.received_bytes_per_sec|async.received_bytes_per_sec";
const REPLICATION_UNITS = { [SENT]: "size", [RECEIVED]: "size" } as const;
const REPLICATION_LABELS = { [SENT]: "Sent per second", [RECEIVED]: "Received per second" };

/** `perf fs-user` and `perf fs-group`: one file system's rates per user or per group. */
const perFileSystem = (who: "user" | "group"): NounSpec => ({
  noun: `perf fs-${who}`,
  area: "Insight",
  kind: "view",
  summary: `Performance per ${who} of a file system`,
  path: `/file-systems/${who}s/performance`,
  columns: ["file_system.name", `${who}.name`, ...RATES.slice(1, 5)],
  select: [{ param: "file_system_names", label: "file-system" }],
  units: BYTES,
  examples: { list: "home" },
});

export const INSIGHT: readonly NounSpec[] = [
  {
    noun: "perf http",
    area: "Insight",
    kind: "view",
    summary: "HTTP operations per second and latency",
    path: "/arrays/http-specific-performance",
    columns: [
      "read_dirs_per_sec",
      "write_dirs_per_sec",
      "read_files_per_sec",
      "write_files_per_sec",
      "usec_per_read_file_op",
      "usec_per_write_file_op",
    ],
  },
  {
    noun: "perf s3",
    area: "Insight",
    kind: "view",
    summary: "S3 operations per second and latency",
    path: "/arrays/s3-specific-performance",
    columns: [
      "read_buckets_per_sec",
      "write_buckets_per_sec",
      "read_objects_per_sec",
      "write_objects_per_sec",
      "usec_per_read_object_op",
      "usec_per_write_object_op",
    ],
  },
  {
    noun: "perf nfs",
    area: "Insight",
    kind: "view",
    summary: "NFS operations per second by type",
    path: "/arrays/nfs-specific-performance",
    columns: [
      "reads_per_sec",
      "writes_per_sec",
      "getattrs_per_sec",
      "lookups_per_sec",
      "usec_per_read_op",
      "usec_per_write_op",
    ],
  },
  {
    noun: "perf replication",
    area: "Insight",
    kind: "view",
    summary: "Replication throughput of the array",
    path: "/arrays/performance/replication",
    columns: [SENT, RECEIVED, "time"],
    units: { ...REPLICATION_UNITS, time: "timestamp" },
    labels: REPLICATION_LABELS,
  },
  {
    noun: "perf clients",
    area: "Insight",
    kind: "view",
    summary: "The busiest NFS clients",
    path: "/arrays/clients/performance",
    columns: RATES,
    units: BYTES,
    examples: { list: "--sort reads_per_sec- --limit 10" },
  },
  {
    noun: "perf fs",
    area: "Insight",
    kind: "view",
    summary: "Performance per file system",
    path: "/file-systems/performance",
    columns: RATES,
    units: BYTES,
    examples: { list: "--name 'proj*'" },
  },
  perFileSystem("user"),
  perFileSystem("group"),
  {
    noun: "perf bucket",
    area: "Insight",
    kind: "view",
    summary: "Performance per bucket",
    path: "/buckets/performance",
    columns: RATES,
    units: BYTES,
  },
  {
    noun: "perf bucket-s3",
    area: "Insight",
    kind: "view",
    summary: "S3 operations per bucket",
    path: "/buckets/s3-specific-performance",
    columns: [
      "name",
      "read_buckets_per_sec",
      "write_buckets_per_sec",
      "read_objects_per_sec",
      "write_objects_per_sec",
      "usec_per_read_object_op",
    ],
  },
  {
    noun: "perf target",
    area: "Insight",
    kind: "view",
    summary: "Replication throughput per target",
    path: "/targets/performance/replication",
    columns: ["name", SENT, RECEIVED],
    units: REPLICATION_UNITS,
    labels: REPLICATION_LABELS,
  },
  {
    noun: "perf connection",
    area: "Insight",
    kind: "view",
    summary: "Replication throughput per array connection",
    path: "/array-connections/performance/replication",
    columns: ["remote.name", SENT, RECEIVED],
    units: REPLICATION_UNITS,
    labels: REPLICATION_LABELS,
  },
];
