/**
 * /admins POST and DELETE (REST 2.15+): local administrators are added with a role and a password and removed by
 * name. The array refuses a name it has, a role it lacks, an admin without a password, removing the built-in
 * `pureuser`, and removing the admin whose session sends the request (it would lock itself out mid-call).
 */
import { z } from "zod";
import { bodyObject, type Json, parseBody, referenceByName } from "../models/body.js";
import { badRequest } from "../types.js";
import { passwordsOf } from "./admins.js";
import { EMPTY, type Handler, ok, selectByNamesOrIds } from "./common.js";
import { collection } from "./generic.js";

const BUILT_IN = "pureuser";

const postBody = z.looseObject({
  password: z.string().min(1),
  role: referenceByName,
  public_key: z.string().optional(),
});

export const createAdmins: Handler = (req, state) => {
  const names = req.query.list("names")?.filter((s) => s !== "") ?? [];
  if (names.length !== 1) throw badRequest("Give one name in 'names'.", "names");
  const name = names[0] as string;
  const admins = collection(state, "/admins");
  if (admins.items.has(name)) throw badRequest(`Admin '${name}' already exists.`, name);
  const body = parseBody(postBody, bodyObject(req, "AdminPost"), "AdminPost", req.version);
  const roles = collection(state, "/roles").items;
  if (!roles.has(body.role.name))
    throw badRequest(`Role '${body.role.name}' does not exist.`, body.role.name);
  const item: Json = {
    name,
    id: state.newId(),
    api_token: null,
    public_key: body.public_key ?? null,
    is_local: true,
    role: { name: body.role.name },
  };
  admins.items.set(name, item);
  // The password is kept beside the state (admins.ts), never in the item a listing shows.
  passwordsOf(state).set(name, body.password);
  return ok([item]);
};

export const deleteAdmins: Handler = (req, state) => {
  const admins = collection(state, "/admins");
  const keyed = new Map(
    [...admins.items].map(([n, i]) => [n, { ...i, id: String(i["id"] ?? ""), name: n }] as const),
  );
  const targets = selectByNamesOrIds(req, keyed, "Admin") ?? [];
  for (const t of targets) {
    if (t.name === BUILT_IN)
      throw badRequest(`Admin '${BUILT_IN}' is built in and cannot be deleted.`, BUILT_IN);
    if (t.name === req.user)
      throw badRequest(
        `Admin '${t.name}' is logged in to make this request and cannot delete itself.`,
        t.name,
      );
  }
  for (const t of targets) {
    admins.items.delete(t.name);
    passwordsOf(state).delete(t.name);
  }
  return EMPTY;
};
