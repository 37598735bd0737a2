/** /bucket-replica-links and /file-system-replica-links (1.9+). */
import { z } from "zod";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import { hashString } from "../models/random.js";
import {
  type ArrayConnectionRec,
  type BucketReplicaLinkRec,
  type FileSystemReplicaLinkRec,
  type LinkHealth,
  linkLag,
  linkStatus,
} from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, exclusive, type Handler, listing, ok, resolveAll } from "./common.js";

const CREDENTIALS = "/object-store-remote-credentials";

function remoteRef(c: ArrayConnectionRec | undefined) {
  return { id: c?.remote.id ?? "", name: c?.remote.name ?? "", resource_type: "array-connections" };
}

function health(state: SimState, h: LinkHealth, id: string) {
  const now = state.clock();
  const lag = linkLag(h, now, state.seed, hashString(id));
  return {
    direction: h.direction,
    lag,
    recovery_point: now - lag,
    status: linkStatus(h),
    status_details: h.status_details,
  };
}

function renderBucketLink(state: SimState, l: BucketReplicaLinkRec): Record<string, unknown> {
  const cred = state.generic.get(CREDENTIALS)?.items.get(l.remoteCredentials);
  return {
    id: l.id,
    ...health(state, l, l.id),
    local_bucket: {
      id: state.buckets.get(l.localBucket)?.id ?? "",
      name: l.localBucket,
      resource_type: "buckets",
    },
    paused: l.paused,
    remote: remoteRef(state.arrayConnections.get(l.remoteId)),
    remote_bucket: { name: l.remoteBucket, id: null, resource_type: "buckets" },
    remote_credentials: {
      name: l.remoteCredentials,
      id: cred?.["id"] ?? null,
      resource_type: "object-store-remote-credentials",
    },
  };
}

/** Links matching every given selector; each selector element must match at least one link. */
function selectBucketLinks(req: SimRequest, state: SimState, required: boolean): BucketReplicaLinkRec[] {
  exclusive(req, "local_bucket_ids", "local_bucket_names");
  exclusive(req, "remote_ids", "remote_names");
  const links = [...state.bucketReplicaLinks.values()];
  const conns = state.arrayConnections;
  const tests: [string, (l: BucketReplicaLinkRec, v: string) => boolean][] = [
    ["local_bucket_names", (l, v) => l.localBucket === v],
    ["local_bucket_ids", (l, v) => state.buckets.get(l.localBucket)?.id === v],
    ["remote_bucket_names", (l, v) => l.remoteBucket === v],
    ["remote_names", (l, v) => conns.get(l.remoteId)?.remote.name === v],
    ["remote_ids", (l, v) => conns.get(l.remoteId)?.remote.id === v],
  ];
  let out = links;
  let any = false;
  for (const [param, test] of tests) {
    const values = req.query.list(param)?.filter((s) => s !== "");
    if (!values?.length) continue;
    any = true;
    out = out.filter((l) => values.some((v) => test(l, v)));
    for (const v of values) {
      if (!out.some((l) => test(l, v)))
        throw badRequest(`No bucket replica link matches ${param} '${v}'.`, v);
    }
  }
  if (required && !any)
    throw badRequest("Select links with local_bucket_names/ids, remote_bucket_names or remote_names/ids.");
  return out;
}

export const listBucketReplicaLinks: Handler = (req, state) =>
  listing(
    selectBucketLinks(req, state, false).map((l) => renderBucketLink(state, l)),
    req,
    { nameParams: [] },
  );

function single(req: SimRequest, param: string): string {
  const v = req.query.list(param)?.filter((s) => s !== "");
  if (v?.length !== 1)
    throw badRequest(`'${param}' must name exactly one ${param.replace(/_names$/, "").replace(/_/g, " ")}.`);
  return v[0] as string;
}

export const createBucketReplicaLinks: Handler = (req, state) => {
  const bucketName = single(req, "local_bucket_names");
  const remoteBucket = single(req, "remote_bucket_names");
  const credName = single(req, "remote_credentials_names");
  const body = parseBody(
    z.strictObject({ paused: z.boolean() }).partial(),
    bodyObject(req, "BucketReplicaLinkPost", true),
    "BucketReplicaLinkPost",
    req.version,
  );
  const [bucket] = resolveAll([bucketName], (n) => state.buckets.get(n), "Bucket");
  if (bucket?.destroyed) throw badRequest(`Bucket '${bucketName}' is destroyed.`, bucketName);
  const cred = state.generic.get(CREDENTIALS)?.items.get(credName);
  if (!cred) throw badRequest(`Remote credentials '${credName}' do not exist.`, credName);
  const remoteName = (cred["remote"] as { name?: string } | undefined)?.name ?? credName.split("/")[0];
  const conn = [...state.arrayConnections.values()].find((c) => c.remote.name === remoteName);
  if (!conn)
    throw badRequest(
      `There is no array connection to '${remoteName}' for credentials '${credName}'.`,
      credName,
    );
  for (const l of state.bucketReplicaLinks.values()) {
    if (l.localBucket === bucketName && l.remoteId === conn.id && l.remoteBucket === remoteBucket) {
      throw badRequest(
        `Bucket '${bucketName}' already replicates to '${remoteName}:${remoteBucket}'.`,
        bucketName,
      );
    }
  }
  const now = state.clock();
  const paused = body.paused ?? false;
  const link: BucketReplicaLinkRec = {
    id: state.newId(),
    localBucket: bucketName,
    remoteId: conn.id,
    remoteBucket,
    remoteCredentials: credName,
    paused,
    pausedAt: paused ? now : null,
    unhealthy: false,
    unhealthySince: null,
    status_details: "",
    direction: "outbound",
  };
  state.bucketReplicaLinks.set(link.id, link);
  return ok([renderBucketLink(state, link)]);
};

const patchBody = z.strictObject({ paused: z.boolean(), remote_credentials: referenceByName }).partial();

export const updateBucketReplicaLinks: Handler = (req, state) => {
  const links = selectBucketLinks(req, state, true);
  const body = parseBody(patchBody, bodyObject(req, "BucketReplicaLink"), "BucketReplicaLink", req.version);
  const credName = body.remote_credentials?.name;
  if (credName !== undefined && !state.generic.get(CREDENTIALS)?.items.has(credName)) {
    throw badRequest(`Remote credentials '${credName}' do not exist.`, credName);
  }
  const now = state.clock();
  for (const l of links) {
    if (body.paused === true && !l.paused) {
      l.paused = true;
      l.pausedAt = now;
    } else if (body.paused === false) {
      l.paused = false;
      l.pausedAt = null;
    }
    if (credName !== undefined) l.remoteCredentials = credName;
  }
  return ok(links.map((l) => renderBucketLink(state, l)));
};

export const deleteBucketReplicaLinks: Handler = (req, state) => {
  for (const l of selectBucketLinks(req, state, true)) state.bucketReplicaLinks.delete(l.id);
  return EMPTY;
};

function renderFsLink(state: SimState, l: FileSystemReplicaLinkRec): Record<string, unknown> {
  const policies = state.policies;
  return {
    id: l.id,
    ...health(state, l, l.id),
    local_file_system: {
      id: state.fileSystems.get(l.localFileSystem)?.id ?? "",
      name: l.localFileSystem,
      resource_type: "file-systems",
    },
    policies: l.policies.map((p) => ({
      name: p,
      id: policies.get(p)?.id ?? "",
      resource_type: "policies",
      is_local: true,
    })),
    remote: remoteRef(state.arrayConnections.get(l.remoteId)),
    remote_file_system: { name: l.remoteFileSystem, id: null },
  };
}

export const listFileSystemReplicaLinks: Handler = (req, state) => {
  exclusive(req, "local_file_system_ids", "local_file_system_names");
  exclusive(req, "remote_ids", "remote_names");
  const conns = state.arrayConnections;
  const tests: [string, (l: FileSystemReplicaLinkRec, v: string) => boolean][] = [
    ["local_file_system_names", (l, v) => l.localFileSystem === v],
    ["local_file_system_ids", (l, v) => state.fileSystems.get(l.localFileSystem)?.id === v],
    ["remote_file_system_names", (l, v) => l.remoteFileSystem === v],
    ["remote_names", (l, v) => conns.get(l.remoteId)?.remote.name === v],
    ["remote_ids", (l, v) => conns.get(l.remoteId)?.remote.id === v],
  ];
  let out = [...state.fileSystemReplicaLinks.values()];
  for (const [param, test] of tests) {
    const values = req.query.list(param)?.filter((s) => s !== "");
    if (!values?.length) continue;
    out = out.filter((l) => values.some((v) => test(l, v)));
    for (const v of values)
      if (!out.some((l) => test(l, v)))
        throw badRequest(`No file system replica link matches ${param} '${v}'.`, v);
  }
  return listing(
    out.map((l) => renderFsLink(state, l)),
    req,
    { nameParams: [] },
  );
};

export const createFileSystemReplicaLinks: Handler = (req, state) => {
  exclusive(req, "local_file_system_ids", "local_file_system_names");
  exclusive(req, "remote_ids", "remote_names");
  const fsIds = req.query.list("local_file_system_ids")?.filter((s) => s !== "");
  const fs = fsIds?.length
    ? resolveAll(fsIds, (i) => byId(state.fileSystems.values()).get(i), "File system with id")[0]
    : resolveAll([single(req, "local_file_system_names")], (n) => state.fileSystems.get(n), "File system")[0];
  if (!fs) throw badRequest("'local_file_system_names' is required.");
  if (fs.destroyed) throw badRequest(`File system '${fs.name}' is destroyed.`, fs.name);
  const remoteIds = req.query.list("remote_ids")?.filter((s) => s !== "");
  const all = [...state.arrayConnections.values()];
  const conn = remoteIds?.length
    ? resolveAll(remoteIds, (i) => all.find((c) => c.remote.id === i), "Array connection to remote id")[0]
    : resolveAll(
        [single(req, "remote_names")],
        (n) => all.find((c) => c.remote.name === n),
        "Array connection to",
      )[0];
  if (!conn) throw badRequest("'remote_names' is required.");
  const remoteFs = req.query.list("remote_file_system_names")?.[0] ?? fs.name;
  const body = bodyObject(req, "FileSystemReplicaLink", true);
  const policyRefs =
    parseBody(
      z.looseObject({ policies: z.array(referenceByName).optional() }),
      body,
      "FileSystemReplicaLink",
      req.version,
    ).policies ?? [];
  const policies = resolveAll(
    policyRefs.map((p) => p.name),
    (n) => state.policies.get(n),
    "Policy",
  ).map((p) => p.name);
  for (const l of state.fileSystemReplicaLinks.values()) {
    if (l.localFileSystem === fs.name && l.remoteId === conn.id) {
      throw badRequest(`File system '${fs.name}' already replicates to '${conn.remote.name}'.`, fs.name);
    }
  }
  const link: FileSystemReplicaLinkRec = {
    id: state.newId(),
    localFileSystem: fs.name,
    remoteId: conn.id,
    remoteFileSystem: remoteFs,
    policies,
    paused: false,
    pausedAt: null,
    unhealthy: false,
    unhealthySince: null,
    status_details: "",
    direction: "outbound",
  };
  state.fileSystemReplicaLinks.set(link.id, link);
  return ok([renderFsLink(state, link)]);
};
