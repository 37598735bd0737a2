/**
 * /targets (replication to S3 endpoints) and /object-store-remote-credentials. A new target is `connecting`
 * until the array reaches it (a few seconds of the simulator's clock; never for `.invalid` hosts); a target
 * can be renamed. Remote credentials are named `<remote>/<name>` after the array connection or target they
 * belong to, name it in `remote`, and never show their secret key again after it was written.
 */
import { z } from "zod";
import { bodyObject, type Json, parseBody, rejectReadOnly } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { collection, gateId, keyed } from "./generic.js";

const TARGETS = "/targets";
const CREDENTIALS = "/object-store-remote-credentials";
/** How long a new target takes to connect, in the simulator's clock. */
export const TARGET_CONNECT_MS = 2_000;
const MASK = "****";

function renderTarget(state: SimState, t: Json): Json {
  const { connect_at: connectAt, ...out } = t;
  if (out["status"] === "connecting" && typeof connectAt === "number" && state.clock() >= connectAt) {
    out["status"] = "connected";
    out["status_details"] = null;
  }
  return out;
}

export const listTargets: Handler = (req, state) =>
  listing(
    [...collection(state, TARGETS).items.values()].map((t) => gateId(req, renderTarget(state, t))),
    req,
    { noun: "Target" },
  );

const targetPost = z.strictObject({ address: z.string().min(1) });
const targetPatch = z.strictObject({ name: z.string().min(1), address: z.string().min(1) }).partial();
const TARGET_READ_ONLY = ["id", "status", "status_details", "ca_certificate_group"] as const;

function remoteNameTaken(state: SimState, name: string): boolean {
  if (collection(state, TARGETS).items.has(name)) return true;
  return [...state.arrayConnections.values()].some((c) => c.remote.name === name);
}

export const createTargets: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0) throw badRequest("Create one target at a time.");
  if (remoteNameTaken(state, name))
    throw badRequest(`A target or array connection named '${name}' exists.`, name);
  const raw = bodyObject(req, "TargetPost");
  rejectReadOnly(raw, TARGET_READ_ONLY, "TargetPost");
  const { address } = parseBody(targetPost, raw, "TargetPost", req.version);
  const unreachable = address.endsWith(".invalid");
  const target: Json = {
    name,
    id: state.newId(),
    address,
    ca_certificate_group: null,
    status: "connecting",
    status_details: unreachable ? `Unable to connect to ${address}.` : null,
    ...(unreachable ? {} : { connect_at: state.clock() + TARGET_CONNECT_MS }),
  };
  collection(state, TARGETS).items.set(name, target);
  return ok([gateId(req, renderTarget(state, target))]);
};

/** A rename carries the target's credentials and the bucket replica links that use them along. */
function renameTarget(state: SimState, from: string, to: string): void {
  const creds = collection(state, CREDENTIALS).items;
  for (const [credName, cred] of [...creds]) {
    if (!credName.startsWith(`${from}/`)) continue;
    const renamed = `${to}/${credName.slice(from.length + 1)}`;
    creds.delete(credName);
    creds.set(renamed, { ...cred, name: renamed, remote: { ...(cred["remote"] as Json), name: to } });
    for (const l of state.bucketReplicaLinks.values())
      if (l.remoteCredentials === credName) l.remoteCredentials = renamed;
  }
}

export const updateTargets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, TARGETS), "Target") ?? [];
  const raw = bodyObject(req, "Target");
  rejectReadOnly(raw, TARGET_READ_ONLY, "Target");
  const body = parseBody(targetPatch, raw, "Target", req.version);
  if (body.name !== undefined) {
    if (targets.length !== 1) throw badRequest("Rename one target at a time.");
    if (body.name !== targets[0]?.name && remoteNameTaken(state, body.name))
      throw badRequest(`A target or array connection named '${body.name}' exists.`, body.name);
  }
  const items = collection(state, TARGETS).items;
  const out: Json[] = [];
  for (const t of targets) {
    const stored = items.get(t.name) as Json;
    const next: Json = { ...stored, ...body };
    if (body.address !== undefined && body.address !== stored["address"]) {
      next["status"] = "connecting";
      next["connect_at"] = state.clock() + TARGET_CONNECT_MS;
    }
    items.delete(t.name);
    items.set(String(next["name"]), next);
    if (body.name !== undefined && body.name !== t.name) renameTarget(state, t.name, body.name);
    out.push(gateId(req, renderTarget(state, next)));
  }
  return ok(out);
};

export const deleteTargets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, TARGETS), "Target") ?? [];
  const creds = [...collection(state, CREDENTIALS).items.keys()];
  for (const t of targets) {
    const own = creds.filter((c) => c.startsWith(`${t.name}/`));
    if (own.length > 0)
      throw badRequest(
        `Target '${t.name}' still has remote credentials (${own.join(", ")}); delete them first.`,
        t.name,
      );
  }
  for (const t of targets) collection(state, TARGETS).items.delete(t.name);
  return EMPTY;
};

/** The array connection or target a `<remote>/<name>` credential belongs to. */
export function remoteOf(state: SimState, credName: string): Json {
  const slash = credName.indexOf("/");
  const remote = slash > 0 ? credName.slice(0, slash) : "";
  if (remote === "" || slash === credName.length - 1)
    throw badRequest(
      `Name remote credentials '<remote>/<name>' after their array connection or target; got '${credName}'.`,
      credName,
    );
  const conn = [...state.arrayConnections.values()].find((c) => c.remote.name === remote);
  if (conn) return { name: conn.remote.name, id: conn.remote.id, resource_type: "array-connections" };
  const target = collection(state, TARGETS).items.get(remote);
  if (target) return { name: remote, id: target["id"] ?? null, resource_type: "targets" };
  throw badRequest(`There is no array connection or target named '${remote}'.`, credName);
}

/** The secret key is write-only: listed as **** (ObjectStoreRemoteCredentials, "listing will only show ****"). */
function renderCredential(req: SimRequest, c: Json): Json {
  return gateId(req, { ...c, secret_access_key: MASK });
}

/** Stored remote credentials as their creation met the rules: named after the remote they name. */
export function checkCredentialStands(state: SimState, cred: Json): void {
  const name = String(cred["name"]);
  const remote = remoteOf(state, name);
  const named = cred["remote"] as Json | undefined;
  if (named?.["name"] !== remote["name"] || named?.["resource_type"] !== remote["resource_type"])
    throw badRequest(`Remote credentials '${name}' do not name the remote they are named after.`, name);
}

export const listCredentials: Handler = (req, state) =>
  listing(
    [...collection(state, CREDENTIALS).items.values()].map((c) => renderCredential(req, c)),
    req,
    { noun: "Remote credentials" },
  );

const credentialBody = z
  .strictObject({ access_key_id: z.string().min(1), secret_access_key: z.string().min(1) })
  .partial();

export const createCredentials: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0)
    throw badRequest("Create one set of remote credentials at a time.");
  const items = collection(state, CREDENTIALS).items;
  if (items.has(name)) throw badRequest(`Remote credentials '${name}' already exist.`, name);
  const raw = bodyObject(req, "ObjectStoreRemoteCredentials");
  rejectReadOnly(raw, ["id", "name", "created", "remote"], "ObjectStoreRemoteCredentials");
  const body = parseBody(credentialBody, raw, "ObjectStoreRemoteCredentials", req.version);
  if (!body.access_key_id || !body.secret_access_key)
    throw badRequest("'access_key_id' and 'secret_access_key' are required in ObjectStoreRemoteCredentials.");
  const cred: Json = {
    name,
    id: state.newId(),
    created: state.clock(),
    access_key_id: body.access_key_id,
    secret_access_key: body.secret_access_key,
    remote: remoteOf(state, name),
  };
  items.set(name, cred);
  return ok([renderCredential(req, cred)]);
};

export const updateCredentials: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, CREDENTIALS), "Remote credentials") ?? [];
  const raw = bodyObject(req, "ObjectStoreRemoteCredentials");
  rejectReadOnly(raw, ["id", "name", "created", "remote"], "ObjectStoreRemoteCredentials");
  const body = parseBody(credentialBody, raw, "ObjectStoreRemoteCredentials", req.version);
  const items = collection(state, CREDENTIALS).items;
  return ok(
    targets.map((t) => {
      const next = { ...(items.get(t.name) as Json), ...body };
      items.set(t.name, next);
      return renderCredential(req, next);
    }),
  );
};

export const deleteCredentials: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, CREDENTIALS), "Remote credentials") ?? [];
  for (const t of targets) {
    const used = [...state.bucketReplicaLinks.values()].find((l) => l.remoteCredentials === t.name);
    if (used)
      throw badRequest(
        `Remote credentials '${t.name}' are used by the replica link of bucket '${used.localBucket}'.`,
        t.name,
      );
  }
  for (const t of targets) collection(state, CREDENTIALS).items.delete(t.name);
  return EMPTY;
};
