/** What bucket and file system replica links share: the remote reference, health fields, one-name selectors. */
import { hashString } from "../models/random.js";
import { type ArrayConnectionRec, type LinkHealth, linkLag, linkStatus } from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";

export function remoteRef(c: ArrayConnectionRec | undefined) {
  return { id: c?.remote.id ?? "", name: c?.remote.name ?? "", resource_type: "array-connections" };
}

export function health(state: SimState, h: LinkHealth, id: string) {
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

export function single(req: SimRequest, param: string): string {
  const v = req.query.list(param)?.filter((s) => s !== "");
  if (v?.length !== 1)
    throw badRequest(`'${param}' must name exactly one ${param.replace(/_names$/, "").replace(/_/g, " ")}.`);
  return v[0] as string;
}
