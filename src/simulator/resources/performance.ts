/** Array-wide performance: all protocols, per protocol, protocol specifics, and replication. */
import { atLeast } from "../../rest-spec/versions.js";
import { hashString } from "../models/random.js";
import { metric, namedMetrics } from "../models/series.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { type Handler, listing } from "./common.js";
import { OTHER_PROTOCOL_SCALE, PROTOCOLS, protocolSample } from "./protocol-samples.js";
import { sampleTimes } from "./time-window.js";

function series(req: SimRequest, state: SimState, sample: (t: number) => Record<string, unknown>) {
  return listing(sampleTimes(req, state.clock()).map(sample), req, { nameParams: [] });
}

export const listArrayPerformance: Handler = (req, state) => {
  const protocol = (req.query.string("protocol") ?? "all").toLowerCase();
  if (!PROTOCOLS.includes(protocol))
    throw badRequest(`'protocol' must be one of ${PROTOCOLS.join(", ")}.`, protocol);
  const v13 = atLeast(req.version, "1.3");
  return series(req, state, (t) => {
    const m = protocolSample(state, protocol, t);
    const { read_bytes_per_sec, write_bytes_per_sec, ...rest } = m;
    return {
      name: state.array.name,
      ...rest,
      // input/output are the deprecated names; sources disagree on their direction, so both are kept consistent.
      input_per_sec: write_bytes_per_sec,
      output_per_sec: read_bytes_per_sec,
      ...(v13 ? { read_bytes_per_sec, write_bytes_per_sec } : {}),
      time: t,
    };
  });
};

const HTTP_FIELDS = [
  "read_dirs_per_sec",
  "write_dirs_per_sec",
  "read_files_per_sec",
  "write_files_per_sec",
  "others_per_sec",
  "usec_per_read_dir_op",
  "usec_per_write_dir_op",
  "usec_per_read_file_op",
  "usec_per_write_file_op",
  "usec_per_other_op",
] as const;

const S3_FIELDS = [
  "read_buckets_per_sec",
  "write_buckets_per_sec",
  "read_objects_per_sec",
  "write_objects_per_sec",
  "others_per_sec",
  "usec_per_read_bucket_op",
  "usec_per_write_bucket_op",
  "usec_per_read_object_op",
  "usec_per_write_object_op",
  "usec_per_other_op",
] as const;

const NFS_OPS = [
  "access",
  "create",
  "fsinfo",
  "fsstat",
  "getattr",
  "link",
  "lookup",
  "mkdir",
  "other",
  "pathconf",
  "read",
  "readdir",
  "readdirplus",
  "readlink",
  "remove",
  "rename",
  "rmdir",
  "setattr",
  "symlink",
  "write",
];
const NFS_META = [
  "file_metadata_create",
  "file_metadata_modify",
  "file_metadata_read",
  "share_metadata_read",
];
/** Rates use the plural (`accesses_per_sec`, `readdirpluses_per_sec`), latencies the singular. */
const plural = (op: string) => (op === "access" || op === "readdirplus" ? `${op}es` : `${op}s`);

function protocolSpecific(fields: readonly string[], protocol: string, withId: boolean): Handler {
  return (req, state) =>
    series(req, state, (t) => ({
      ...(withId ? { id: state.array.id } : {}),
      name: state.array.name,
      ...namedMetrics(state.seed, `array:${protocol}`, t, fields, OTHER_PROTOCOL_SCALE[protocol] ?? 1),
      time: t,
    }));
}

export const listHttpPerformance = protocolSpecific(HTTP_FIELDS, "http", false);
export const listS3Performance = protocolSpecific(S3_FIELDS, "s3", false);
/**
 * NFS operations by kind, from the same sample `/arrays/performance?protocol=nfs` answers (scenario included): reads
 * and writes are its reads and writes, every other kind a fixed share of its other operations, so the kinds add
 * up to the NFS total `diagnose` and `perf` show. Latencies follow the sample's per-kind latencies.
 */
const OTHER_NFS_OPS = NFS_OPS.filter((o) => o !== "read" && o !== "write");
const OTHER_WEIGHTS = (() => {
  const raw = OTHER_NFS_OPS.map(
    (o) =>
      1 + (hashString(`nfs-op:${o}`) % 20) * (o === "getattr" || o === "lookup" || o === "access" ? 5 : 1),
  );
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / sum);
})();

export const listNfsPerformance: Handler = (req, state) =>
  series(req, state, (t) => {
    const m = protocolSample(state, "nfs", t);
    const reads = m["reads_per_sec"] ?? 0;
    const writes = m["writes_per_sec"] ?? 0;
    const others = m["others_per_sec"] ?? 0;
    // Whole operations per kind; the rounding remainder goes to the largest kind so the sum stays exact.
    const shares = OTHER_WEIGHTS.map((w) => Math.floor(others * w));
    const left = others - shares.reduce((a, b) => a + b, 0);
    const biggest = shares.indexOf(Math.max(...shares));
    if (biggest >= 0) shares[biggest] = (shares[biggest] ?? 0) + left;
    const out: Record<string, unknown> = { id: state.array.id, name: state.array.name };
    OTHER_NFS_OPS.forEach((o, i) => {
      out[`${plural(o)}_per_sec`] = shares[i] ?? 0;
      out[`usec_per_${o}_op`] = Math.round(
        (m["usec_per_other_op"] ?? 0) * (0.6 + (OTHER_WEIGHTS[i] ?? 0) * 4),
      );
    });
    out["reads_per_sec"] = reads;
    out["writes_per_sec"] = writes;
    out["usec_per_read_op"] = m["usec_per_read_op"] ?? 0;
    out["usec_per_write_op"] = m["usec_per_write_op"] ?? 0;
    // Metadata aggregates: what the kinds above amount to, never a rate of their own.
    const rate = (op: string) => Number(out[`${plural(op)}_per_sec`] ?? 0);
    out["aggregate_file_metadata_creates_per_sec"] =
      rate("create") + rate("mkdir") + rate("symlink") + rate("link");
    out["aggregate_file_metadata_modifies_per_sec"] =
      rate("setattr") + rate("rename") + rate("remove") + rate("rmdir");
    out["aggregate_file_metadata_reads_per_sec"] =
      rate("getattr") + rate("lookup") + rate("access") + rate("readlink");
    out["aggregate_share_metadata_reads_per_sec"] = rate("fsstat") + rate("fsinfo") + rate("pathconf");
    for (const f of NFS_META) out[`aggregate_usec_per_${f}_op`] = m["usec_per_other_op"] ?? 0;
    out["time"] = t;
    return out;
  });

const REPLICATION_TYPES = ["all", "file-system", "object-store"];

/**
 * The replication throughput object: `async` on the 1.x wire in every version (purity_fb 1.12.3 reads its
 * `periodic` attribute from the wire key `async`, 1.12 included: the spec's "renamed in 1.12.2" is the SDK's
 * package revision, not the wire), `periodic` in 2.x (the 2.x models).
 */
export function replicationSample(req: SimRequest, seed: number, key: string, t: number, scale: number) {
  const h = hashString(key) % 7;
  const values = {
    transmitted_bytes_per_sec: Math.round(metric(seed, `${key}:tx`, t, (40 + h) * 1024 * 1024 * scale)),
    received_bytes_per_sec: Math.round(metric(seed, `${key}:rx`, t, (4 + h) * 1024 * 1024 * scale)),
  };
  return atLeast(req.version, "2.0") ? { periodic: values } : { async: values };
}

export function replicationType(req: SimRequest): number {
  const type = (req.query.string("type") ?? "all").toLowerCase();
  if (!REPLICATION_TYPES.includes(type))
    throw badRequest(`'type' must be one of ${REPLICATION_TYPES.join(", ")}.`, type);
  return type === "all" ? 1 : type === "file-system" ? 0.6 : 0.4;
}

export const listReplicationPerformance: Handler = (req, state) => {
  const scale = replicationType(req);
  return series(req, state, (t) => ({
    id: state.array.id,
    name: state.array.name,
    ...replicationSample(req, state.seed, "array:replication", t, scale),
    time: t,
  }));
};
