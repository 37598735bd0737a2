/**
 * The four rule policies of 2.x file access (NFS export, SMB client, SMB share, network access) and the
 * file-system exports that tie a file system to them. The rules the array keeps: a policy an export uses cannot
 * be deleted; an export names an existing file system and a policy of its protocol, and its name is unique on
 * its server; rule fields take the values the 2.x models list (SDK docs), and a client is an address, a subnet,
 * a host name pattern, a netgroup or `*`. Which client may mount what is mount-access.ts, over these records.
 */

import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import { clientProblem } from "../models/client-match.js";
import { createIdSource, createRng } from "../models/random.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, selectByNamesOrIds } from "./common.js";
import { arrayRef, oneOf, onlyFields, pickOne, type Rec, records, refOf } from "./family-store.js";
import { type RuleFamily, ruleHandlers } from "./rule-policies.js";

export const EXPORTS = "/file-system-exports";

function client(rule: Json): void {
  const problem = clientProblem(String(rule["client"]));
  if (problem) throw badRequest(`'client': ${problem}.`, "client");
}

function exportsUsing(field: "policy" | "share_policy") {
  return (state: SimState, policy: Rec): string | undefined => {
    const users = [...records(state, EXPORTS).values()].filter(
      (e) => (e[field] as Json | null)?.["id"] === policy.id,
    );
    return users.length
      ? `export${users.length > 1 ? "s" : ""} ${users.map((e) => `'${e.name}'`).join(", ")}`
      : undefined;
  };
}

export const NFS_EXPORT: RuleFamily = {
  path: "/nfs-export-policies",
  noun: "NFS export policy",
  policyType: "nfs",
  indexed: true,
  ruleDefaults: {
    client: "*",
    permission: "ro",
    access: "root-squash",
    anonuid: null,
    anongid: null,
    atime: true,
    fileid_32bit: false,
    secure: false,
    security: ["sys"],
    required_transport_security: null,
  },
  checkRule(rule) {
    client(rule);
    oneOf(rule["permission"], ["rw", "ro"], "permission");
    oneOf(rule["access"], ["root-squash", "all-squash", "no-squash"], "access");
    for (const s of (rule["security"] as string[] | undefined) ?? [])
      oneOf(s, ["auth_sys", "sys", "krb5", "krb5i", "krb5p"], "security");
  },
  usedBy: exportsUsing("policy"),
};

export const SMB_CLIENT: RuleFamily = {
  path: "/smb-client-policies",
  noun: "SMB client policy",
  policyType: "smb-client",
  indexed: true,
  ruleDefaults: { client: "*", encryption: "optional", permission: "rw" },
  policyDefaults: { access_based_enumeration_enabled: false },
  checkRule(rule) {
    client(rule);
    oneOf(rule["permission"], ["rw", "ro"], "permission");
    oneOf(rule["encryption"], ["required", "disabled", "optional"], "encryption");
  },
  usedBy: exportsUsing("policy"),
};

const SHARE_VALUES = ["allow", "deny", "", null] as unknown as string[];

export const SMB_SHARE: RuleFamily = {
  path: "/smb-share-policies",
  noun: "SMB share policy",
  policyType: "smb-share",
  indexed: false,
  ruleDefaults: { principal: "Everyone", change: null, full_control: null, read: null },
  checkRule(rule) {
    if (typeof rule["principal"] !== "string" || rule["principal"] === "")
      throw badRequest("'principal' is required (a user, a group or 'Everyone').", "principal");
    for (const f of ["change", "full_control", "read"]) oneOf(rule[f], SHARE_VALUES, f);
  },
  usedBy: exportsUsing("share_policy"),
};

export const NETWORK_ACCESS: RuleFamily = {
  path: "/network-access-policies",
  noun: "network access policy",
  policyType: "network-access",
  indexed: true,
  builtInOnly: true,
  ruleDefaults: {
    client: "*",
    effect: "allow",
    interfaces: [
      "management-ssh",
      "management-rest-api",
      "management-web-ui",
      "snmp",
      "local-network-superuser-password-access",
    ],
  },
  checkRule(rule) {
    client(rule);
    oneOf(rule["effect"], ["allow", "deny"], "effect");
  },
};

/**
 * Every array has the built-in network access policy `default`, allowing everyone to every interface. Its ids
 * come from a source of their own, so every scenario's other ids stay what they were before it existed.
 */
export function seedNetworkAccess(state: SimState): void {
  const byName = records(state, NETWORK_ACCESS.path);
  if (byName.has("default")) return;
  const newId = createIdSource(createRng(state.seed ^ 0x4e41));
  const p: Rec = {
    name: "default",
    id: newId(),
    enabled: true,
    is_local: true,
    location: arrayRef(state),
    policy_type: NETWORK_ACCESS.policyType,
    realms: [],
    version: newId(),
    rules: [],
  };
  const rule = { name: "default.1", id: newId(), ...NETWORK_ACCESS.ruleDefaults, index: 1 };
  p["rules"] = [{ ...rule, policy: refOf(p, "network-access-policies"), policy_version: p["version"] }];
  byName.set("default", p);
}

export const ROUTES_BY_FAMILY = Object.fromEntries(
  [NFS_EXPORT, SMB_CLIENT, SMB_SHARE, NETWORK_ACCESS].flatMap((f) => {
    const h = ruleHandlers(f);
    return [
      [f.path, f.builtInOnly ? { GET: h.policies.GET, PATCH: h.policies.PATCH } : h.policies],
      [`${f.path}/rules`, h.rules],
    ];
  }),
);

const SERVER = { name: "_array_server", resource_type: "servers" };

/** The policy an export names: an NFS export policy, else an SMB client policy (its `policy_type` follows). */
function exportPolicy(state: SimState, req: Parameters<Handler>[0]): { policy: Rec; family: RuleFamily } {
  for (const f of [NFS_EXPORT, SMB_CLIENT]) {
    try {
      const policy = pickOne(req, "policy", records(state, f.path), f.noun);
      if (policy) return { policy, family: f };
    } catch {
      // Not in this family; the next one may have it.
    }
  }
  const named = req.query.list("policy_names") ?? req.query.list("policy_ids") ?? [];
  if (named.length === 0) throw badRequest("'policy_names' or 'policy_ids' is required.");
  throw badRequest(`No NFS export policy or SMB client policy '${named[0]}' exists.`, named[0]);
}

function sharePolicy(state: SimState, body: Json): Json | null {
  const ref = body["share_policy"] as Json | undefined | null;
  if (!ref) return null;
  const byName = records(state, SMB_SHARE.path);
  const p =
    ref["name"] !== undefined
      ? byName.get(String(ref["name"]))
      : [...byName.values()].find((x) => x.id === ref["id"]);
  if (!p)
    throw badRequest(
      `SMB share policy '${String(ref["name"] ?? ref["id"])}' does not exist.`,
      "share_policy",
    );
  return refOf(p, "smb-share-policies");
}

const listExports: Handler = (req, state) =>
  listing([...records(state, EXPORTS).values()], req, { noun: "Export" });

const createExports: Handler = (req, state) => {
  const fileSystems = new Map(
    [...state.fileSystems.values()]
      .filter((f) => !f.destroyed)
      .map((f) => [f.name, { ...f, id: f.id } as unknown as Rec]),
  );
  const member = pickOne(req, "member", fileSystems, "File system") as Rec;
  const { policy, family } = exportPolicy(state, req);
  const body = bodyObject(req, "FileSystemExportPost", true);
  onlyFields(body, ["export_name", "server", "share_policy"], "FileSystemExportPost");
  const name = String(body["export_name"] ?? member.name);
  const problem = nameProblem(name);
  if (problem) throw badRequest(`'${name}' is not a valid export name (${problem}).`, name);
  if (records(state, EXPORTS).has(name))
    throw badRequest(`Export '${name}' already exists on ${SERVER.name}.`, name);
  const share = sharePolicy(state, body);
  if (family === NFS_EXPORT && share)
    throw badRequest("'share_policy' is for SMB exports only.", "share_policy");
  const rec: Rec = {
    name,
    id: state.newId(),
    export_name: name,
    enabled: true,
    member: refOf(member, "file-systems"),
    policy: refOf(policy, family.path.slice(1)),
    policy_type: family.policyType === "nfs" ? "nfs" : "smb",
    server: { ...SERVER, id: state.array.id },
    share_policy: share,
    status: "exported",
    context: arrayRef(state),
  };
  records(state, EXPORTS).set(name, rec);
  return ok([rec]);
};

const updateExports: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, EXPORTS), "Export") as Rec[];
  const body = bodyObject(req, "FileSystemExportPatch");
  onlyFields(body, ["export_name", "policy", "share_policy"], "FileSystemExportPatch");
  for (const e of targets) {
    if (body["share_policy"] !== undefined) e["share_policy"] = sharePolicy(state, body);
    const ref = body["policy"] as Json | undefined;
    if (ref) {
      const family = e["policy_type"] === "nfs" ? NFS_EXPORT : SMB_CLIENT;
      const p = records(state, family.path).get(String(ref["name"]));
      if (!p) throw badRequest(`${family.noun} '${String(ref["name"])}' does not exist.`, "policy");
      e["policy"] = refOf(p, family.path.slice(1));
    }
    const rename = body["export_name"] as string | undefined;
    if (rename !== undefined && rename !== e.name) {
      if (records(state, EXPORTS).has(rename)) throw badRequest(`Export '${rename}' already exists.`, rename);
      records(state, EXPORTS).delete(e.name);
      e.name = rename;
      e["export_name"] = rename;
      records(state, EXPORTS).set(rename, e);
    }
  }
  return ok(targets);
};

const deleteExports: Handler = (req, state) => {
  for (const e of selectByNamesOrIds(req, records(state, EXPORTS), "Export") as Rec[])
    records(state, EXPORTS).delete(e.name);
  return EMPTY;
};

export const EXPORT_ROUTES = {
  [EXPORTS]: { GET: listExports, POST: createExports, PATCH: updateExports, DELETE: deleteExports },
};
