/**
 * What bucket and file system replica links share: the remote reference, health fields, one-name parameters,
 * and selecting links by query parameters.
 */
import { type LinkTransfer, linkTransfers } from "../models/link-transfers.js";
import { hashString } from "../models/random.js";
import {
  type ArrayConnectionRec,
  type FileSystemReplicaLinkRec,
  type LinkHealth,
  linkLag,
  linkStatus,
  type Schedule,
  transferTime,
} from "../models/replication.js";
import { linkRemote } from "../models/replication-rules.js";
import { findPeer } from "../peers.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";

export function remoteRef(c: ArrayConnectionRec | undefined) {
  return { id: c?.remote.id ?? "", name: c?.remote.name ?? "", resource_type: "array-connections" };
}

/** The schedule of the shortest rule of the policies on a file system link; undefined for none (or a bucket link). */
export function linkSchedule(state: SimState, policies: readonly string[] | undefined): Schedule | undefined {
  const rules = (policies ?? [])
    .flatMap((p) => state.policies.get(p)?.rules ?? [])
    .filter((r) => r.every > 0)
    .sort((a, b) => a.every - b.every);
  const r = rules[0];
  return r ? { every: r.every, at: (r.at ?? 0) % r.every } : undefined;
}

/**
 * What a file system link has sent of its policies' snapshots (live snapshots of its file system that one of its
 * policies took), on the shortest schedule among them; none for an inbound link (the source sends).
 */
export function fsLinkTransfers(
  state: SimState,
  l: FileSystemReplicaLinkRec,
): { lag: number | undefined; transfers: LinkTransfer[] } {
  const schedule = linkSchedule(state, l.policies);
  if (schedule === undefined || l.direction === "inbound") return { lag: undefined, transfers: [] };
  const ids = new Set(l.policies.map((p) => state.policies.get(p)?.id).filter((id) => id !== undefined));
  const snaps = [...state.snapshots.values()].filter(
    (s) => s.source === l.localFileSystem && !s.destroyed && s.policy !== null && ids.has(s.policy.id),
  );
  const { lag, transfers } = linkTransfers(l, snaps, transferTime(schedule.every), state.clock());
  return { lag, transfers };
}

/**
 * How far behind a link is: for a file system link that has sent a snapshot, since that snapshot was taken
 * (so the lag and the last snapshot sent agree); otherwise on the link's model (linkLag).
 */
export function currentLag(state: SimState, h: LinkHealth, id: string, schedule?: Schedule): number {
  return linkLag(h, state.clock(), state.seed, hashString(id), schedule);
}

export function fsLinkLag(state: SimState, l: FileSystemReplicaLinkRec): number {
  const source = l.direction === "inbound" ? sourceLink(state, l) : undefined;
  if (source !== undefined) return fsLinkLag(source.peer, source.link);
  return fsLinkTransfers(state, l).lag ?? currentLag(state, l, l.id, linkSchedule(state, l.policies));
}

/**
 * The source end of an inbound link, when its array runs in this process (peers.ts): the target lags exactly as
 * far as the source has sent, so both ends report one lag.
 */
function sourceLink(
  state: SimState,
  l: FileSystemReplicaLinkRec,
): { peer: SimState; link: FileSystemReplicaLinkRec } | undefined {
  const address = state.arrayConnections.get(l.remoteId)?.management_address;
  const peer = address === undefined ? undefined : findPeer(address);
  if (peer === undefined) return undefined;
  for (const link of peer.fileSystemReplicaLinks.values()) {
    if (
      link.direction === "outbound" &&
      link.localFileSystem === l.remoteFileSystem &&
      link.remoteFileSystem === l.localFileSystem &&
      linkRemote(peer, link.remoteId)?.name === state.array.name
    )
      return { peer, link };
  }
  return undefined;
}

export function health(state: SimState, h: LinkHealth, id: string, schedule?: Schedule, lagNow?: number) {
  const now = state.clock();
  const lag = lagNow ?? linkLag(h, now, state.seed, hashString(id), schedule);
  return {
    direction: h.direction,
    lag,
    recovery_point: now - lag,
    status: linkStatus(h),
    status_details: h.status_details,
  };
}

export function single(req: SimRequest, param: string): string {
  const v = req.query.list(param)?.filter((s) => s !== "");
  if (v?.length !== 1)
    throw badRequest(`'${param}' must name exactly one ${param.replace(/_names$/, "").replace(/_/g, " ")}.`);
  return v[0] as string;
}

/** A query parameter that selects links, and whether one of its values picks a given link. */
export type LinkSelector<L> = readonly [param: string, matches: (link: L, value: string) => boolean];

/** The remote end's selectors, the same for both kinds of link. */
export function remoteSelectors<L extends { remoteId: string }>(state: SimState): LinkSelector<L>[] {
  return [
    ["remote_names", (l, v) => linkRemote(state, l.remoteId)?.name === v],
    ["remote_ids", (l, v) => linkRemote(state, l.remoteId)?.id === v],
  ];
}

/**
 * The links matching every selector the query gives; like the array, a value that matches no link is a 400
 * naming it rather than an empty answer. `selected` says whether the query gave any selector at all.
 */
export function selectLinks<L>(
  req: SimRequest,
  all: Iterable<L>,
  selectors: readonly LinkSelector<L>[],
  noun: string,
): { links: L[]; selected: boolean } {
  let links = [...all];
  let selected = false;
  for (const [param, matches] of selectors) {
    const values = req.query.list(param)?.filter((s) => s !== "");
    if (!values?.length) continue;
    selected = true;
    links = links.filter((l) => values.some((v) => matches(l, v)));
    for (const v of values) {
      if (!links.some((l) => matches(l, v))) throw badRequest(`No ${noun} matches ${param} '${v}'.`, v);
    }
  }
  return { links, selected };
}
