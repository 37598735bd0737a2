/**
 * What bucket and file system replica links share: the remote reference, health fields, one-name parameters,
 * and selecting links by query parameters.
 */
import { hashString } from "../models/random.js";
import {
  type ArrayConnectionRec,
  type LinkHealth,
  linkLag,
  linkStatus,
  type Schedule,
} from "../models/replication.js";
import { linkRemote } from "../models/replication-rules.js";
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

export function currentLag(state: SimState, h: LinkHealth, id: string, schedule?: Schedule): number {
  return linkLag(h, state.clock(), state.seed, hashString(id), schedule);
}

export function health(state: SimState, h: LinkHealth, id: string, schedule?: Schedule) {
  const now = state.clock();
  const lag = linkLag(h, now, state.seed, hashString(id), schedule);
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
