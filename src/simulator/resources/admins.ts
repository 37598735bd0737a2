/**
 * /admins: API tokens and passwords are write-only; a token is shown only with expose=true. /admins/cache: the
 * roles cached for directory users, refreshed or cleared by name.
 */
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, selectByNamesOrIds } from "./common.js";
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

/** A local admin's password until someone changes it: the factory default of every FlashBlade. */
export const FACTORY_PASSWORD = "pureuser";

/** Passwords of local admins, kept beside the state so no listing, audit or store can ever carry them. */
const passwords = new WeakMap<SimState, Map<string, string>>();

export function passwordsOf(state: SimState): Map<string, string> {
  let m = passwords.get(state);
  if (!m) {
    m = new Map();
    passwords.set(state, m);
  }
  return m;
}

/**
 * A password change names the current password, and it must be right: `old_password` is checked against what
 * the admin's password is now (the factory default until changed). Only a local admin has one here.
 */
function checkPasswordChange(
  state: SimState,
  targets: readonly (Json & { name: string })[],
  old: string | undefined,
): void {
  if (old === undefined) throw badRequest("Changing a password needs 'old_password' too.");
  for (const t of targets) {
    if (t["is_local"] === false)
      throw badRequest(
        `Admin '${t.name}' is a directory user; change the password in the directory.`,
        t.name,
      );
    if ((passwordsOf(state).get(t.name) ?? FACTORY_PASSWORD) !== old)
      throw badRequest(`'old_password' is not the current password of '${t.name}'.`, "old_password");
  }
}

export const updateAdmins: Handler = (req, state) => {
  const c = collection(state, "/admins");
  const keyed = new Map<string, Json & { id: string; name: string }>(
    [...c.items].map(([n, i]) => [n, { ...i, id: String(i["id"] ?? ""), name: n }]),
  );
  const targets = selectByNamesOrIds(req, keyed, "Admin") ?? [];
  const body = parseBody(patchBody, bodyObject(req, "Admin"), "Admin", req.version);
  if (body.password !== undefined) checkPasswordChange(state, targets, body.old_password);
  if (body.create_api_token && body.delete_api_token)
    throw badRequest("Create or delete an API token, not both.");
  const now = state.clock();
  const updated = targets.map((t) => {
    const item = c.items.get(t.name) as Json;
    if (body.password !== undefined) passwordsOf(state).set(t.name, body.password);
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

const CACHE = "/admins/cache";

function cacheKeyed(state: SimState): Map<string, Json & { id: string; name: string }> {
  return new Map(
    [...collection(state, CACHE).items].map(([n, i]) => [n, { ...i, id: String(i["id"] ?? ""), name: n }]),
  );
}

/**
 * The roles the array cached for directory users. `refresh=true` looks the selected users (or all) up again,
 * which stamps a new time; a name that is not cached is refused, as for any other listing.
 */
export const listAdminCache: Handler = (req, state) => {
  const items = collection(state, CACHE).items;
  if (req.query.bool("refresh") === true) {
    const chosen = selectByNamesOrIds(req, cacheKeyed(state), "Cached admin", false);
    const now = state.clock();
    for (const entry of chosen ?? [...items.values()]) {
      const stored = items.get(String(entry["name"]));
      if (stored) stored["time"] = now;
    }
  }
  // 1.x names the role; 2.x refers to it (AdminCache.role: a FixedReference to a role).
  const shown = atLeast(req.version, "2.0")
    ? [...items.values()].map((i) => ({ ...i, role: { name: i["role"], resource_type: "roles" } }))
    : [...items.values()];
  return listing(shown, req, { noun: "Cached admin" });
};

/** Clears cached entries, so the next login of those users asks the directory again. */
export const deleteAdminCache: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, cacheKeyed(state), "Cached admin") ?? [];
  for (const t of targets) collection(state, CACHE).items.delete(t.name);
  return EMPTY;
};
