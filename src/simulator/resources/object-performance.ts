/**
 * Per-object performance listings: file systems, buckets, clients, hot users and groups (1.12), and replication
 * per array connection or target. Without a window each object has one sample; with one, a series per object.
 */
import { hashString } from "../models/random.js";
import { namedMetrics, standardPerformance } from "../models/series.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { at, type Handler, listing, preselect } from "./common.js";
import { replicationSample, replicationType } from "./performance.js";
import { clientSample } from "./protocol-samples.js";
import { shapeByQos } from "./qos-policies.js";
import { sampleTimes } from "./time-window.js";

/** Upper bound on samples × objects one listing generates. */
const MAX_POINTS = 20_000;

interface Subject {
  name: string;
  id?: string;
  extra?: Record<string, unknown>;
  weight: number;
}

function perObject(
  req: SimRequest,
  state: SimState,
  subjects: readonly Subject[],
  sample: (s: Subject, t: number) => Record<string, unknown>,
): Record<string, unknown>[] {
  const times = sampleTimes(req, state.clock());
  if (times.length * subjects.length > MAX_POINTS) {
    throw badRequest(
      `That request would return ${times.length * subjects.length} samples; narrow it with 'names', a shorter window or a coarser 'resolution'.`,
    );
  }
  const out: Record<string, unknown>[] = [];
  for (const s of subjects) for (const t of times) out.push(sample(s, t));
  return out;
}

const FS_PROTOCOLS: Record<string, number> = { all: 1, nfs: 0.8, smb: 0.2, http: 0.05 };

/** A sample of an object nobody uses: every rate, size per operation and latency zero. */
function idlePerformance(): Record<string, number> {
  return Object.fromEntries(Object.keys(standardPerformance(0, "idle", 0, 0, true)).map((k) => [k, 0]));
}

export const listFileSystemPerformance: Handler = (req, state) => {
  const protocol = (req.query.string("protocol") ?? "all").toLowerCase();
  const scale = Object.hasOwn(FS_PROTOCOLS, protocol) ? FS_PROTOCOLS[protocol] : undefined;
  if (scale === undefined)
    throw badRequest(`'protocol' must be one of ${Object.keys(FS_PROTOCOLS).join(", ")}.`, protocol);
  const v18 = at(req, "1.8");
  const subjects: Subject[] = [];
  const created = new Map<string, number>();
  for (const fs of preselect(req, state.fileSystems, () => state.fileSystems.values())) {
    if (fs.destroyed) continue;
    // A file system with no data has no clients working on it, and none before it existed.
    const weight = fs.space.virtual > 0 ? 0.02 + (hashString(fs.name) % 100) / 100 : 0;
    subjects.push({ name: fs.name, id: fs.id, weight });
    created.set(fs.name, fs.created);
  }
  const items = perObject(req, state, subjects, (s, t) => ({
    name: s.name,
    ...(s.weight > 0 && t >= (created.get(s.name) ?? 0)
      ? shapeByQos(
          state,
          "file-systems",
          s.name,
          standardPerformance(state.seed, `fs:${s.name}:${protocol}`, t, s.weight * scale, true),
        )
      : idlePerformance()),
    time: t,
    ...(v18 ? { id: s.id } : {}),
  }));
  return listing(items, req, { totals: "list", noun: "File system" });
};

function bucketSubjects(req: SimRequest, state: SimState): Subject[] {
  const out: Subject[] = [];
  for (const b of preselect(req, state.buckets, () => state.buckets.values())) {
    if (!b.destroyed) out.push({ name: b.name, id: b.id, weight: 0.05 + (hashString(b.name) % 50) / 100 });
  }
  return out;
}

export const listBucketPerformance: Handler = (req, state) =>
  listing(
    perObject(req, state, bucketSubjects(req, state), (s, t) => ({
      id: s.id,
      name: s.name,
      ...shapeByQos(
        state,
        "buckets",
        s.name,
        standardPerformance(state.seed, `bucket:${s.name}`, t, s.weight, true),
      ),
      time: t,
    })),
    req,
    { totals: "list" },
  );

const BUCKET_S3_FIELDS = [
  "others_per_sec",
  "read_buckets_per_sec",
  "read_objects_per_sec",
  "write_buckets_per_sec",
  "write_objects_per_sec",
  "usec_per_other_op",
  "usec_per_read_bucket_op",
  "usec_per_read_object_op",
  "usec_per_write_bucket_op",
  "usec_per_write_object_op",
];

export const listBucketS3Performance: Handler = (req, state) =>
  listing(
    perObject(req, state, bucketSubjects(req, state), (s, t) => ({
      id: s.id,
      name: s.name,
      ...namedMetrics(state.seed, `bucket-s3:${s.name}`, t, BUCKET_S3_FIELDS, s.weight),
      time: t,
    })),
    req,
    { totals: "list" },
  );

export const listClientPerformance: Handler = (req, state) => {
  const now = state.clock();
  const items = state.clients.map((c) => ({
    name: c.name,
    ...clientSample(state, c, now),
    time: now,
  }));
  return listing(items, req, { totals: at(req, "1.11") ? "list" : "none" });
};

/** Hot users or groups (1.12): one row per uid/gid with usage on a file system. */
function hotListing(kind: "user" | "group"): Handler {
  return (req, state) => {
    const tables = kind === "user" ? state.users : state.groups;
    const idParam = kind === "user" ? "uids" : "gids";
    const fsNames = req.query.list("file_system_names");
    for (const f of fsNames ?? [])
      if (!state.fileSystems.has(f)) throw badRequest(`File system '${f}' does not exist.`, f);
    const ids = req.query.list(idParam)?.map((v) => {
      if (!/^\d+$/.test(v)) throw badRequest(`'${idParam}' entries must be numeric ids; got '${v}'.`, v);
      return Number(v);
    });
    const now = state.clock();
    const items: Record<string, unknown>[] = [];
    for (const [key, usage] of tables.usage) {
      const [fs = "", idText = "0"] = key.split("\u0000");
      const id = Number(idText);
      if ((fsNames && !fsNames.includes(fs)) || (ids && !ids.includes(id))) continue;
      const subjectName = tables.directory.find((d) => d.id === id)?.name ?? null;
      items.push({
        name: `${fs}/${subjectName ?? id}`,
        file_system: { name: fs, id: state.fileSystems.get(fs)?.id, resource_type: "file-systems" },
        [kind]: { id, name: subjectName },
        ...standardPerformance(state.seed, `${kind}:${key}`, now, Math.min(1, usage / 1024 ** 4) * 0.2, true),
        time: now,
      });
    }
    return listing(items, req);
  };
}

export const listFileSystemUserPerformance = hotListing("user");
export const listFileSystemGroupPerformance = hotListing("group");

export const listConnectionReplicationPerformance: Handler = (req, state) => {
  const scale = replicationType(req);
  const subjects = [...state.arrayConnections.values()].map((c) => ({
    name: c.remote.name,
    id: c.id,
    extra: { remote: { id: c.remote.id, name: c.remote.name } },
    weight: scale,
  }));
  const wanted = req.query.list("remote_names");
  const chosen = wanted ? subjects.filter((s) => wanted.includes(s.name)) : subjects;
  for (const w of wanted ?? [])
    if (!chosen.some((s) => s.name === w)) throw badRequest(`No array connection to '${w}'.`, w);
  const items = perObject(req, state, chosen, (s, t) => ({
    id: s.id,
    ...replicationSample(req, state.seed, `conn:${s.name}`, t, s.weight),
    ...s.extra,
    time: t,
  }));
  // Real arrays answer replication performance with `total` whether or not it was asked for.
  return listing(items, req, { totals: "list", nameParams: [], alwaysTotal: true });
};

export const listTargetReplicationPerformance: Handler = (req, state) => {
  const scale = replicationType(req);
  const targets = [...(state.generic.get("/targets")?.items.values() ?? [])];
  const subjects = targets.map((t) => ({
    name: String(t["name"]),
    id: String(t["id"] ?? ""),
    weight: scale * 0.5,
  }));
  const items = perObject(req, state, subjects, (s, t) => ({
    id: s.id,
    name: s.name,
    ...replicationSample(req, state.seed, `target:${s.name}`, t, s.weight),
    time: t,
  }));
  return listing(items, req, { totals: "list", alwaysTotal: true });
};
