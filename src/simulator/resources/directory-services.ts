/**
 * /directory-services (management, nfs, smb), their roles, and /active-directory (1.12). Bind passwords and
 * the Active Directory join password are accepted and never read back: DirectoryService.bind_password is
 * "obfuscated" (listed as ****), ActiveDirectory has no password field at all.
 */
import { z } from "zod";
import { bodyObject, type Json, parseBody, rejectReadOnly } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { collection, gateId, keyed } from "./generic.js";

const SERVICES = "/directory-services";
const ROLES = "/directory-services/roles";
const AD = "/active-directory";
const MASK = "****";

/** The built-in array roles; each maps to a directory group. */
export const BUILT_IN_ROLES = ["array_admin", "ops_admin", "readonly", "storage_admin"] as const;

function renderService(req: SimRequest, s: Json): Json {
  return gateId(req, { ...s, bind_password: s["bind_password"] ? MASK : null });
}

export const listDirectoryServices: Handler = (req, state) =>
  listing(
    [...collection(state, SERVICES).items.values()].map((s) => renderService(req, s)),
    req,
    { noun: "Directory service" },
  );

const ref = z.looseObject({ name: z.string().min(1) }).nullable();
const servicePatch = z
  .strictObject({
    base_dn: z.string(),
    bind_password: z.string(),
    bind_user: z.string(),
    ca_certificate: ref,
    ca_certificate_group: ref,
    enabled: z.boolean(),
    // [""] clears the list (how Pure's Ansible module removes a directory service).
    uris: z.array(z.union([z.literal(""), z.string().regex(/^ldaps?:\/\//, "an ldap:// or ldaps:// URI")])),
    management: z.looseObject({}),
    nfs: z.looseObject({}),
    smb: z.looseObject({}),
  })
  .partial();

export const updateDirectoryServices: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, SERVICES), "Directory service") ?? [];
  const raw = bodyObject(req, "DirectoryService");
  rejectReadOnly(raw, ["id", "name", "services"], "DirectoryService");
  const body = parseBody(servicePatch, raw, "DirectoryService", req.version);
  const items = collection(state, SERVICES).items;
  const next = targets.map((t) => applyServicePatch(items.get(t.name) as Json, body));
  for (const n of next) {
    const uris = n["uris"] as string[] | undefined;
    if (n["enabled"] === true && (uris ?? []).length === 0 && n["name"] === "management")
      throw badRequest(
        `Directory service '${String(n["name"])}' has no URIs; give 'uris' to enable it, or send enabled=false.`,
        String(n["name"]),
      );
  }
  for (const n of next) items.set(String(n["name"]), n);
  return ok(next.map((n) => renderService(req, n)));
};

/**
 * A PATCH as arrays take it: empty strings clear a text field (read back as null), an empty URI drops out of
 * `uris`, and an empty bind password forgets the stored one; nested settings (`nfs`, `smb`) merge.
 */
export function applyServicePatch(current: Json, body: z.output<typeof servicePatch>): Json {
  const next: Json = { ...current };
  for (const [k, v] of Object.entries(body)) {
    if (k === "uris") next[k] = (v as string[]).filter((u) => u !== "");
    else if (typeof v === "string") next[k] = v === "" ? null : v;
    else if ((k === "nfs" || k === "smb" || k === "management") && v !== null && typeof v === "object")
      next[k] = { ...((current[k] as Json | undefined) ?? {}), ...(v as Json) };
    else next[k] = v;
  }
  return next;
}

/** Every built-in role is listed, mapped to a group or not yet (null). */
export function seedDirectoryRoles(state: SimState, groups: Partial<Record<string, string>> = {}): void {
  const items = collection(state, ROLES).items;
  for (const role of BUILT_IN_ROLES) {
    const group = groups[role] ?? null;
    items.set(role, {
      name: role,
      id: state.newId(),
      group,
      group_base: group === null ? null : "ou=groups,dc=example,dc=com",
    });
  }
}

export const listDirectoryRoles: Handler = (req, state) =>
  listing(
    [...collection(state, ROLES).items.values()].map((r) => gateId(req, r)),
    req,
    { noun: "Directory service role" },
  );

const rolePatch = z
  .strictObject({ group: z.string().nullable(), group_base: z.string().nullable() })
  .partial();

export const updateDirectoryRoles: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, ROLES), "Directory service role") ?? [];
  const raw = bodyObject(req, "DirectoryServiceRole");
  rejectReadOnly(raw, ["id", "name"], "DirectoryServiceRole");
  const body = parseBody(rolePatch, raw, "DirectoryServiceRole", req.version);
  const items = collection(state, ROLES).items;
  return ok(
    targets.map((t) => {
      // A cleared mapping ("" from Pure's Ansible module) reads back as null.
      const cleared = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === "" ? null : v]));
      const next: Json = { ...(items.get(t.name) as Json), ...cleared };
      items.set(t.name, next);
      return gateId(req, next);
    }),
  );
};

const adFields = {
  computer_name: z.string().min(1).max(15),
  directory_servers: z.array(z.string().min(1)),
  domain: z.string().min(1),
  encryption_types: z.array(z.enum(["aes256-cts-hmac-sha1-96", "aes128-cts-hmac-sha1-96", "arcfour-hmac"])),
  fqdns: z.array(z.string().min(1)),
  join_ou: z.string(),
  kerberos_servers: z.array(z.string().min(1)),
  password: z.string().min(1),
  service_principal_names: z.array(z.string().min(1)),
  user: z.string().min(1),
};
const adPost = z.strictObject(adFields).partial().required({ domain: true, user: true, password: true });
const adPatch = z
  .strictObject({
    directory_servers: adFields.directory_servers,
    encryption_types: adFields.encryption_types,
    fqdns: adFields.fqdns,
    join_ou: adFields.join_ou,
    kerberos_servers: adFields.kerberos_servers,
    service_principal_names: adFields.service_principal_names,
  })
  .partial();

/** Every service the array supports registers a principal for each FQDN. */
function principals(fqdns: readonly string[]): string[] {
  return fqdns.flatMap((f) => [`nfs/${f}`, `HOST/${f}`, `cifs/${f}`]);
}

export const listActiveDirectory: Handler = (req, state) =>
  listing([...collection(state, AD).items.values()], req, { noun: "Active Directory account" });

export const createActiveDirectory: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0) throw badRequest("Join one Active Directory account at a time.");
  const items = collection(state, AD).items;
  if (items.size > 0)
    throw badRequest("The array is already joined to Active Directory; delete that account first.");
  const body = parseBody(adPost, bodyObject(req, "ActiveDirectoryPost"), "ActiveDirectoryPost", req.version);
  const computer = body.computer_name ?? name.slice(0, 15);
  const fqdns = body.fqdns ?? [`${computer.toLowerCase()}.${body.domain}`];
  // The credentials only join the domain: nothing of them is kept.
  const account: Json = {
    name,
    id: state.newId(),
    computer_name: computer,
    directory_servers: body.directory_servers ?? [],
    domain: body.domain,
    encryption_types: body.encryption_types ?? ["aes256-cts-hmac-sha1-96"],
    join_ou: body.join_ou ?? "CN=Computers",
    kerberos_servers: body.kerberos_servers ?? [],
    service_principal_names: body.service_principal_names ?? principals(fqdns),
  };
  items.set(name, account);
  return ok([account]);
};

export const updateActiveDirectory: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, AD), "Active Directory account") ?? [];
  const raw = bodyObject(req, "ActiveDirectoryPatch");
  rejectReadOnly(raw, ["id", "name", "computer_name", "domain"], "ActiveDirectoryPatch");
  const body = parseBody(adPatch, raw, "ActiveDirectoryPatch", req.version);
  const items = collection(state, AD).items;
  return ok(
    targets.map((t) => {
      const { fqdns, ...rest } = body;
      const next: Json = { ...(items.get(t.name) as Json), ...rest };
      if (fqdns && !body.service_principal_names) next["service_principal_names"] = principals(fqdns);
      items.set(t.name, next);
      return next;
    }),
  );
};

export const deleteActiveDirectory: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, AD), "Active Directory account") ?? [];
  for (const t of targets) collection(state, AD).items.delete(t.name);
  return EMPTY;
};
