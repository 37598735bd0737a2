/** /bucket-replica-links (1.9+). */
import { z } from "zod";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import { type BucketReplicaLinkRec, freshLinkHealth, resume } from "../models/replication.js";
import { credentialRemote, linkRemote } from "../models/replication-rules.js";
import { findPeer } from "../peers.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, exclusive, type Handler, listing, ok, resolveAll } from "./common.js";
import { currentLag, health, remoteRef, remoteSelectors, selectLinks, single } from "./link-common.js";

const CREDENTIALS = "/object-store-remote-credentials";

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
    remote: linkRemote(state, l.remoteId) ?? remoteRef(undefined),
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
  const { links, selected } = selectLinks(
    req,
    state.bucketReplicaLinks.values(),
    [
      ["local_bucket_names", (l, v) => l.localBucket === v],
      ["local_bucket_ids", (l, v) => state.buckets.get(l.localBucket)?.id === v],
      ["remote_bucket_names", (l, v) => l.remoteBucket === v],
      ...remoteSelectors<BucketReplicaLinkRec>(state),
    ],
    "bucket replica link",
  );
  if (required && !selected)
    throw badRequest("Select links with local_bucket_names/ids, remote_bucket_names or remote_names/ids.");
  return links;
}

export const listBucketReplicaLinks: Handler = (req, state) =>
  listing(
    selectBucketLinks(req, state, false).map((l) => renderBucketLink(state, l)),
    req,
    { nameParams: [] },
  );

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
  const remote = credentialRemote(state, credName, cred);
  for (const l of state.bucketReplicaLinks.values()) {
    if (l.localBucket === bucketName && l.remoteId === remote.key && l.remoteBucket === remoteBucket) {
      throw badRequest(
        `Bucket '${bucketName}' already replicates to '${remote.name}:${remoteBucket}'.`,
        bucketName,
      );
    }
  }
  remoteBucketStands(state, remote.key, remoteBucket);
  const now = state.clock();
  const paused = body.paused ?? false;
  const link: BucketReplicaLinkRec = {
    id: state.newId(),
    localBucket: bucketName,
    remoteId: remote.key,
    remoteBucket,
    remoteCredentials: credName,
    ...freshLinkHealth({ paused, pausedAt: paused ? now : null }),
  };
  state.bucketReplicaLinks.set(link.id, link);
  return ok([renderBucketLink(state, link)]);
};

/**
 * A link to a connected array this process also simulates: the remote bucket must exist there, live, with
 * versioning enabled, as a real array checks over the connection before it creates the link.
 */
function remoteBucketStands(state: SimState, connectionId: string, name: string): void {
  const address = state.arrayConnections.get(connectionId)?.management_address;
  const peer = address === undefined ? undefined : findPeer(address);
  if (peer === undefined) return;
  const b = peer.buckets.get(name);
  if (!b || b.destroyed)
    throw badRequest(`Remote bucket '${name}' does not exist on '${peer.array.name}'.`, name);
  if (b.versioning !== "enabled")
    throw badRequest(
      `Remote bucket '${name}' on '${peer.array.name}' does not have versioning enabled.`,
      name,
    );
}

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
    } else if (body.paused === false && l.paused) {
      const lag = currentLag(state, l, l.id);
      l.paused = false;
      l.pausedAt = null;
      resume(l, now, lag);
    }
    if (credName !== undefined) l.remoteCredentials = credName;
  }
  return ok(links.map((l) => renderBucketLink(state, l)));
};

export const deleteBucketReplicaLinks: Handler = (req, state) => {
  for (const l of selectBucketLinks(req, state, true)) state.bucketReplicaLinks.delete(l.id);
  return EMPTY;
};
