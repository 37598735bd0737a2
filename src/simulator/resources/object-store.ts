/** Object store accounts, users and access keys. */
import { z } from "zod";
import { NAME_RULES } from "../../rest-spec/names.js";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import {
  type AccessKeyRec,
  type AccountRec,
  type BucketRec,
  FULL_ACCESS_POLICY,
  type ObjectUserRec,
  renderAccessKey,
  renderAccount,
  renderObjectUser,
} from "../models/object-store.js";
import { randomLetters, randomSecret } from "../models/random.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import {
  at,
  EMPTY,
  type Handler,
  listing,
  ok,
  paramSince,
  requireList,
  resolveAll,
  selectByNamesOrIds,
} from "./common.js";

/** Names as src/rest-spec/names.ts gives them for this kind. */
const NAME = NAME_RULES["account"].pattern;
const MAX_KEYS_PER_USER = 2;

export function accountView(state: SimState, version: string) {
  const bucketsByAccount = new Map<string, BucketRec[]>();
  for (const b of state.buckets.values()) {
    const list = bucketsByAccount.get(b.account) ?? [];
    list.push(b);
    bucketsByAccount.set(b.account, list);
  }
  return (a: AccountRec) => renderAccount(a, version, bucketsByAccount.get(a.name) ?? []);
}

export const listAccounts: Handler = (req, state) =>
  listing([...state.accounts.values()].map(accountView(state, req.version)), req, {
    totals: "object",
    noun: "Object store account",
  });

export const createAccounts: Handler = (req, state) => {
  const names = requireList(req, "names");
  for (const n of names) {
    if (!NAME.test(n)) throw badRequest(`'${n}' is not a valid account name (letters, digits and '-').`, n);
    if (state.accounts.has(n)) throw badRequest(`Object store account '${n}' already exists.`, n);
  }
  const created = names.map((name) => {
    const a: AccountRec = { id: state.newId(), name, created: state.clock() };
    state.accounts.set(name, a);
    return a;
  });
  return ok(created.map(accountView(state, req.version)));
};

export const deleteAccounts: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.accounts, "Object store account") ?? [];
  for (const a of targets) {
    const bucket = [...state.buckets.values()].find((b) => b.account === a.name);
    if (bucket)
      throw badRequest(
        `Account '${a.name}' still has bucket '${bucket.name}'; eradicate its buckets first.`,
        a.name,
      );
  }
  for (const a of targets) {
    state.accounts.delete(a.name);
    for (const u of [...state.objectUsers.values()]) if (u.account === a.name) removeUser(state, u);
  }
  return EMPTY;
};

function userView(state: SimState, version: string) {
  return (u: ObjectUserRec) =>
    renderObjectUser(
      u,
      version,
      state.accounts.get(u.account)?.id ?? "",
      [...state.accessKeys.values()].filter((k) => k.user === u.name),
    );
}

export const listObjectUsers: Handler = (req, state) =>
  listing([...state.objectUsers.values()].map(userView(state, req.version)), req, {
    noun: "Object store user",
  });

export const createObjectUsers: Handler = (req, state) => {
  paramSince(req, "full_access", "1.12");
  const names = requireList(req, "names");
  const parsed = names.map((n) => {
    const [account, user, extra] = n.split("/");
    if (!account || !user || extra !== undefined || !NAME.test(user)) {
      throw badRequest(`'${n}' is not a valid object store user name; use 'account/user'.`, n);
    }
    if (!state.accounts.has(account))
      throw badRequest(`Object store account '${account}' does not exist.`, n);
    if (state.objectUsers.has(n)) throw badRequest(`Object store user '${n}' already exists.`, n);
    return { name: n, account };
  });
  const fullAccess = req.query.bool("full_access") ?? false;
  const created = parsed.map(({ name, account }) => {
    const u: ObjectUserRec = {
      id: state.newId(),
      name,
      account,
      created: state.clock(),
      full_access: fullAccess,
    };
    state.objectUsers.set(name, u);
    // full_access=true is the built-in full-access policy attached at creation.
    if (fullAccess) state.accessPolicies.get(FULL_ACCESS_POLICY)?.members.add(name);
    return u;
  });
  return ok(created.map(userView(state, req.version)));
};

function removeUser(state: SimState, u: ObjectUserRec): void {
  state.objectUsers.delete(u.name);
  for (const p of state.accessPolicies.values()) p.members.delete(u.name);
  for (const k of [...state.accessKeys.values()]) if (k.user === u.name) state.accessKeys.delete(k.name);
}

export const deleteObjectUsers: Handler = (req, state) => {
  for (const u of selectByNamesOrIds(req, state.objectUsers, "Object store user") ?? []) removeUser(state, u);
  return EMPTY;
};

function keyView(state: SimState, version: string, withSecret = false) {
  return (k: AccessKeyRec) =>
    renderAccessKey(k, version, state.objectUsers.get(k.user)?.id ?? "", withSecret);
}

export const listAccessKeys: Handler = (req, state) => {
  // The access key listing lost its ids parameter in 1.10 (keys lost their id after 1.9).
  paramSince(req, "ids", "1.8", "1.10");
  return listing([...state.accessKeys.values()].map(keyView(state, req.version)), req, {
    noun: "Access key",
  });
};

export function newAccessKey(state: SimState, user: string, secret?: string, name?: string): AccessKeyRec {
  return {
    id: state.newId(),
    name: name ?? `PSFB${randomLetters(state.rng, 40)}`,
    user,
    created: state.clock(),
    enabled: true,
    secret: secret ?? randomSecret(state.rng, 40),
  };
}

export const createAccessKeys: Handler = (req, state) => {
  const importing = at(req, "1.10");
  const schema = z.strictObject(
    importing
      ? { user: referenceByName, secret_access_key: z.string().min(1).optional() }
      : { user: referenceByName },
  );
  const body = parseBody(
    schema,
    bodyObject(req, "ObjectStoreAccessKeyPost"),
    "ObjectStoreAccessKeyPost",
    req.version,
  );
  const [user] = resolveAll([body.user.name], (n) => state.objectUsers.get(n), "Object store user");
  if (!user) throw badRequest("'user' is required.");
  const secret = "secret_access_key" in body ? (body.secret_access_key as string | undefined) : undefined;
  const names = req.query.list("names")?.filter((s) => s !== "");
  if (names?.length && secret === undefined)
    throw badRequest("'names' is only used to import a key with its 'secret_access_key'.");
  if (secret !== undefined && names?.length !== 1)
    throw badRequest("Importing a key needs exactly one name in 'names'.");
  const keyName = names?.[0];
  if (keyName !== undefined && state.accessKeys.has(keyName))
    throw badRequest(`Access key '${keyName}' already exists.`, keyName);
  const count = [...state.accessKeys.values()].filter((k) => k.user === user.name).length;
  if (count >= MAX_KEYS_PER_USER) {
    throw badRequest(
      `User '${user.name}' already has ${MAX_KEYS_PER_USER} access keys; delete one first.`,
      user.name,
    );
  }
  const key = newAccessKey(state, user.name, secret, keyName);
  state.accessKeys.set(key.name, key);
  return ok([keyView(state, req.version, true)(key)]);
};

const keyPatch = z.strictObject({ enabled: z.boolean() }).partial();

export const updateAccessKeys: Handler = (req, state) => {
  const names = requireList(req, "names");
  const keys = resolveAll(names, (n) => state.accessKeys.get(n), "Access key");
  const body = parseBody(
    keyPatch,
    bodyObject(req, "ObjectStoreAccessKey"),
    "ObjectStoreAccessKey",
    req.version,
  );
  for (const k of keys) if (body.enabled !== undefined) k.enabled = body.enabled;
  return ok(keys.map(keyView(state, req.version)));
};

export const deleteAccessKeys: Handler = (req, state) => {
  const keys = resolveAll(requireList(req, "names"), (n) => state.accessKeys.get(n), "Access key");
  for (const k of keys) state.accessKeys.delete(k.name);
  return EMPTY;
};
