/** /array-connections (1.9+): selected by remote_names / remote_ids, never by name. */
import { z } from "zod";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import { type ArrayConnectionRec, renderArrayConnection } from "../models/replication.js";
import { CONNECTION_KEY_PATH, caGroupFor } from "../models/replication-rules.js";
import { learnRemoteAnywhere } from "../peer-wire.js";
import type { SimState } from "../state.js";
import { badRequest, type SimHandler, type SimRequest } from "../types.js";
import { EMPTY, exclusive, type Handler, listing, ok, rejectParam, resolveAll } from "./common.js";

/** Connections named by remote_names / remote_ids; undefined when neither is given. */
export function selectConnections(req: SimRequest, state: SimState): ArrayConnectionRec[] | undefined {
  exclusive(req, "remote_names", "remote_ids");
  const all = [...state.arrayConnections.values()];
  const names = req.query.list("remote_names")?.filter((s) => s !== "");
  if (names?.length)
    return resolveAll(names, (n) => all.find((c) => c.remote.name === n), "Array connection to");
  const ids = req.query.list("remote_ids")?.filter((s) => s !== "");
  if (ids?.length)
    return resolveAll(ids, (i) => all.find((c) => c.remote.id === i), "Array connection to remote id");
  return undefined;
}

function noNames(req: SimRequest): void {
  const hint = "array connections are selected by 'remote_names' or 'remote_ids'.";
  rejectParam(req, "name", hint);
  rejectParam(req, "names", hint);
}

export const listArrayConnections: Handler = (req, state) => {
  noNames(req);
  const selected = selectConnections(req, state) ?? [...state.arrayConnections.values()];
  return listing(selected.map(renderArrayConnection), req, { nameParams: [] });
};

const ADDRESS = z.string().min(1).max(255);

const postBody = z
  .strictObject({
    management_address: ADDRESS,
    connection_key: z.string().min(1),
    encrypted: z.boolean(),
    replication_addresses: z.array(ADDRESS),
    ca_certificate_group: referenceByName,
    remote: referenceByName,
  })
  .partial()
  .required({ management_address: true, connection_key: true });

export const createArrayConnections: SimHandler<SimState> = (req, state) => {
  noNames(req);
  const body = parseBody(
    postBody,
    bodyObject(req, "ArrayConnectionPost"),
    "ArrayConnectionPost",
    req.version,
  );
  const address = body.management_address;
  const unique = (remote?: ArrayConnectionRec["remote"]) => {
    const all = [...state.arrayConnections.values()];
    if (all.some((c) => c.management_address === address))
      throw badRequest(`An array connection to ${address} already exists.`, address);
    if (remote && all.some((c) => c.remote.name === remote.name))
      throw badRequest(`Array '${remote.name}' is already connected.`, remote.name);
  };
  unique();
  const encrypted = body.encrypted ?? false;
  const caGroup = caGroupFor(state, encrypted, body.ca_certificate_group);
  const create = (remote: ArrayConnectionRec["remote"]) => {
    // Asked over the wire, the peer answered after a while: what held before is checked again.
    unique(remote);
    const conn: ArrayConnectionRec = {
      id: state.newId(),
      remote,
      management_address: address,
      replication_addresses: body.replication_addresses ?? [address],
      status: "connected",
      encrypted,
      version: state.array.version,
      ca_certificate_group: caGroup,
    };
    state.arrayConnections.set(conn.id, conn);
    return ok([renderArrayConnection(conn)]);
  };
  const remote = learnRemoteAnywhere(state, address, body.connection_key, body.remote?.name);
  return remote instanceof Promise ? remote.then(create) : create(remote);
};

const patchBody = z
  .strictObject({
    management_address: ADDRESS,
    encrypted: z.boolean(),
    replication_addresses: z.array(ADDRESS),
    ca_certificate_group: referenceByName.nullable(),
  })
  .partial();

function required(req: SimRequest, state: SimState): ArrayConnectionRec[] {
  noNames(req);
  const ids = req.query.list("ids")?.filter((s) => s !== "");
  if (ids?.length) {
    exclusive(req, "ids", "remote_names");
    exclusive(req, "ids", "remote_ids");
    return resolveAll(ids, (i) => state.arrayConnections.get(i), "Array connection with id");
  }
  const selected = selectConnections(req, state);
  if (!selected) throw badRequest("'remote_names' or 'remote_ids' is required.");
  return selected;
}

export const updateArrayConnections: Handler = (req, state) => {
  const targets = required(req, state);
  const body = parseBody(patchBody, bodyObject(req, "ArrayConnection", true), "ArrayConnection", req.version);
  const { ca_certificate_group: named, ...rest } = body;
  const groups = targets.map((c) =>
    caGroupFor(state, body.encrypted ?? c.encrypted, named === undefined ? c.ca_certificate_group : named),
  );
  targets.forEach((c, i) => {
    Object.assign(c, rest);
    c.ca_certificate_group = groups[i] ?? null;
  });
  return ok(targets.map(renderArrayConnection));
};

export const deleteArrayConnections: Handler = (req, state) => {
  const targets = required(req, state);
  for (const c of targets) {
    const used =
      [...state.bucketReplicaLinks.values()].some((l) => l.remoteId === c.id) ||
      [...state.fileSystemReplicaLinks.values()].some((l) => l.remoteId === c.id);
    if (used)
      throw badRequest(
        `Array connection to '${c.remote.name}' still has replica links; delete them first.`,
        c.remote.name,
      );
  }
  for (const c of targets) state.arrayConnections.delete(c.id);
  return EMPTY;
};

const KEY_LIFETIME_MS = 60 * 60 * 1000;
const KEY_PATH = CONNECTION_KEY_PATH;

/** The key a remote array needs to connect to this one; a new one replaces the old. */
export const createConnectionKey: Handler = (_req, state) => {
  const now = state.clock();
  const key = { connection_key: state.newId(), created: now, expires: now + KEY_LIFETIME_MS };
  state.generic.set(KEY_PATH, { singleton: true, items: new Map([["key", key]]) });
  return ok([key]);
};

export const listConnectionKey: Handler = (req, state) => {
  const existing = state.generic.get(KEY_PATH)?.items.get("key");
  const now = state.clock();
  // ArrayConnectionKey: "After creation, listing will only show ****"; the create answer is the one place.
  const live = existing && Number(existing["expires"]) > now ? [{ ...existing, connection_key: "****" }] : [];
  return listing(live, req, { nameParams: [] });
};

export const listConnectionPaths: Handler = (req, state) => {
  noNames(req);
  const selected = selectConnections(req, state) ?? [...state.arrayConnections.values()];
  const items = selected.flatMap((c) =>
    c.replication_addresses.map((addr, i) => ({
      id: `${c.id}-${i}`,
      name: `${c.remote.name}:${addr}`,
      destination: addr,
      source: `10.0.0.${10 + i}`,
      status: c.status === "connected" ? "connected" : "connecting",
    })),
  );
  return listing(items, req, { nameParams: [] });
};
