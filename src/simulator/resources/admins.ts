/** /admins: API tokens and passwords are write-only; a token is shown only with expose=true. */
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody } from "../models/body.js";
import { badRequest } from "../types.js";
import { type Handler, listing, ok, selectByNamesOrIds } from "./common.js";
import { collection } from "./generic.js";

function render(item: Json, expose: boolean, version: string): Json {
  const out: Json = { ...item };
  const token = item["api_token"] as Json | null | undefined;
  if (token) out["api_token"] = { ...token, token: expose ? token["token"] : "****" };
  if (!atLeast(version, "1.11")) {
    delete out["id"];
    delete out["public_key"];
    delete out["is_local"];
  }
  return out;
}

export const listAdmins: Handler = (req, state) => {
  const expose = req.query.bool("expose") === true;
  return listing(
    [...collection(state, "/admins").items.values()].map((a) => render(a, expose, req.version)),
    req,
  );
};

const patchBody = z
  .strictObject({
    create_api_token: z.boolean(),
    api_token_timeout: z.int().min(0),
    delete_api_token: z.boolean(),
    old_password: z.string(),
    password: z.string().min(1),
    public_key: z.string(),
  })
  .partial();

export const updateAdmins: Handler = (req, state) => {
  const c = collection(state, "/admins");
  const keyed = new Map<string, Json & { id: string; name: string }>(
    [...c.items].map(([n, i]) => [n, { ...i, id: String(i["id"] ?? ""), name: n }]),
  );
  const targets = selectByNamesOrIds(req, keyed, "Admin") ?? [];
  const body = parseBody(patchBody, bodyObject(req, "Admin"), "Admin", req.version);
  if (body.password !== undefined && body.old_password === undefined) {
    throw badRequest("Changing a password needs 'old_password' too.");
  }
  if (body.create_api_token && body.delete_api_token)
    throw badRequest("Create or delete an API token, not both.");
  const now = state.clock();
  const updated = targets.map((t) => {
    const item = c.items.get(t.name) as Json;
    if (body.public_key !== undefined) item["public_key"] = body.public_key;
    if (body.delete_api_token) item["api_token"] = null;
    if (body.create_api_token) {
      const timeout = body.api_token_timeout;
      item["api_token"] = {
        created: now,
        expires: timeout ? now + timeout : null,
        token: `T-${state.newId()}`,
      };
    }
    return item;
  });
  // The answer to the call that created a token is the one place it is shown.
  return ok(updated.map((i) => render(i, body.create_api_token === true, req.version)));
};
