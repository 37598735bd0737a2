/**
 * /api-clients (1.12): OAuth clients that exchange ID tokens signed with their key for access tokens. A new
 * client is disabled until PATCH enabled=true (ApiClientResp: "disabled by default"), carries the `key_id`
 * its tokens must name, and is issued by itself unless told otherwise.
 */
import { createHash, createPublicKey } from "node:crypto";
import { z } from "zod";
import { bodyObject, type Json, parseBody, referenceByName, rejectReadOnly } from "../models/body.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { BUILT_IN_ROLES } from "./directory-services.js";
import { collection, keyed } from "./generic.js";

const PATH = "/api-clients";
const DAY_MS = 86_400_000;

const postBody = z.strictObject({
  max_role: referenceByName,
  issuer: z.string().min(1).optional(),
  public_key: z.string().min(1),
  access_token_ttl_in_ms: z.int().min(1_000).max(DAY_MS).optional(),
});

/** The key id is the key's fingerprint, so the same key gets the same id. */
function keyIdOf(pem: string): string {
  try {
    const der = createPublicKey(pem).export({ type: "spki", format: "der" });
    return createHash("sha256").update(der).digest("hex").slice(0, 32);
  } catch {
    throw badRequest(
      "'public_key' is not a PEM public key (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----).",
    );
  }
}

export const listApiClients: Handler = (req, state) =>
  listing([...collection(state, PATH).items.values()], req, { noun: "API client" });

export const createApiClients: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0) throw badRequest("Create one API client at a time.");
  const items = collection(state, PATH).items;
  if (items.has(name)) throw badRequest(`API client '${name}' already exists.`, name);
  const raw = bodyObject(req, "ApiClientPost");
  rejectReadOnly(raw, ["id", "name", "key_id", "enabled"], "ApiClientPost");
  const body = parseBody(postBody, raw, "ApiClientPost", req.version);
  if (!(BUILT_IN_ROLES as readonly string[]).includes(body.max_role.name))
    throw badRequest(`'max_role' must be one of ${BUILT_IN_ROLES.join(", ")}.`, body.max_role.name);
  const client: Json = {
    name,
    id: state.newId(),
    max_role: { name: body.max_role.name },
    issuer: body.issuer ?? name,
    public_key: body.public_key,
    key_id: keyIdOf(body.public_key),
    enabled: false,
    access_token_ttl_in_ms: body.access_token_ttl_in_ms ?? DAY_MS,
  };
  items.set(name, client);
  return ok([client]);
};

const patchBody = z.strictObject({ enabled: z.boolean() });

export const updateApiClients: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, PATH), "API client") ?? [];
  const raw = bodyObject(req, "ApiClientPatch");
  for (const f of Object.keys(raw))
    if (f !== "enabled") throw badRequest(`Only 'enabled' can change on an API client; '${f}' cannot.`);
  const body = parseBody(patchBody, raw, "ApiClientPatch", req.version);
  const items = collection(state, PATH).items;
  return ok(
    targets.map((t) => {
      const stored = items.get(t.name) as Json;
      stored["enabled"] = body.enabled;
      return stored;
    }),
  );
};

export const deleteApiClients: Handler = (req, state) => {
  for (const t of selectByNamesOrIds(req, keyed(state, PATH), "API client") ?? [])
    collection(state, PATH).items.delete(t.name);
  return EMPTY;
};
