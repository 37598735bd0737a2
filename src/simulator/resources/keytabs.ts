/**
 * /keytabs. From 1.12 the array creates keytabs itself from its Active Directory account (KeytabPost's
 * `source`): it rotates the account's keys and stores one entry per service principal and encryption type,
 * named `<prefix>.<suffix>`. Before 1.12 keytabs only arrive by upload.
 */
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody, referenceByName } from "../models/body.js";
import { readKeytab } from "../models/keytab-file.js";
import type { FilePart } from "../models/multipart.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, selectByNamesOrIds } from "./common.js";
import { collection } from "./generic.js";

const KEYTABS = "/keytabs";

export const listKeytabs: Handler = (req, state) =>
  listing([...collection(state, KEYTABS).items.values()], req, {
    totals: atLeast(req.version, "1.12") ? "none" : "object",
    noun: "Keytab",
  });

const keytabPost = z.strictObject({ source: referenceByName });

export const createKeytabs: Handler = (req, state) => {
  const { source } = parseBody(keytabPost, bodyObject(req, "KeytabPost"), "KeytabPost", req.version);
  const account = collection(state, "/active-directory").items.get(source.name);
  if (!account)
    throw badRequest(
      `Active Directory account '${source.name}' does not exist; join the domain first.`,
      source.name,
    );
  const prefixes = req.query.list("name_prefixes")?.filter((p) => p !== "") ?? [];
  if (prefixes.length > 1) throw badRequest("Give one prefix in 'name_prefixes': the keytabs share it.");
  const prefix = prefixes[0] ?? source.name;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(prefix))
    throw badRequest(`'${prefix}' is not a valid keytab prefix (letters, digits, '-', '_').`, prefix);
  const items = collection(state, KEYTABS).items;
  const existing = [...items.values()];
  let suffix = Math.max(0, ...existing.filter((k) => k["prefix"] === prefix).map((k) => Number(k["suffix"])));
  const realm = String(account["domain"]).toUpperCase();
  const kvno = 1 + Math.max(1, ...existing.filter((k) => k["realm"] === realm).map((k) => Number(k["kvno"])));
  const created: Json[] = [];
  for (const spn of account["service_principal_names"] as string[]) {
    for (const encryption of account["encryption_types"] as string[]) {
      suffix += 1;
      const keytab: Json = {
        name: `${prefix}.${suffix}`,
        id: state.newId(),
        encryption_type: encryption,
        fqdn: spn.slice(spn.indexOf("/") + 1),
        kvno,
        prefix,
        principal: `${spn}@${realm}`,
        realm,
        suffix,
      };
      items.set(String(keytab["name"]), keytab);
      created.push(keytab);
    }
  }
  return ok(created);
};

/**
 * POST /keytabs/upload (1.9+): a keytab file in the multipart part `keytab_file`, one keytab per entry named
 * `<prefix>.<n>` (the prefix from `name_prefixes`, else the file's name). The file is read, not kept.
 */
export const uploadKeytabs: Handler = (req, state) => {
  const part = (req.body as Record<string, unknown> | undefined)?.["keytab_file"] as FilePart | undefined;
  if (!part || typeof part !== "object" || !Buffer.isBuffer(part.bytes))
    throw badRequest("'keytab_file' is required: the keytab file as a part of a multipart/form-data body.");
  const entries = readKeytab(part.bytes);
  if (typeof entries === "string") throw badRequest(`'keytab_file' is ${entries}.`, "keytab_file");
  const prefixes = req.query.list("name_prefixes")?.filter((p) => p !== "") ?? [];
  if (prefixes.length > 1) throw badRequest("Give one prefix in 'name_prefixes': the keytabs share it.");
  const prefix = prefixes[0] ?? part.filename.replace(/\.keytab$/, "");
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(prefix))
    throw badRequest(`'${prefix}' is not a valid keytab prefix (letters, digits, '-', '_').`, prefix);
  const items = collection(state, KEYTABS).items;
  let suffix = Math.max(
    0,
    ...[...items.values()].filter((k) => k["prefix"] === prefix).map((k) => Number(k["suffix"])),
  );
  const created = entries.map((e) => {
    suffix += 1;
    const keytab: Json = {
      name: `${prefix}.${suffix}`,
      id: state.newId(),
      encryption_type: e.encryption_type,
      fqdn: e.principal.slice(e.principal.indexOf("/") + 1, e.principal.lastIndexOf("@")),
      kvno: e.kvno,
      prefix,
      principal: e.principal,
      realm: e.realm,
      suffix,
    };
    items.set(String(keytab["name"]), keytab);
    return keytab;
  });
  return ok(created);
};

export const deleteKeytabs: Handler = (req, state) => {
  const keyed = new Map<string, Json & { id: string }>();
  for (const [n, k] of collection(state, KEYTABS).items) keyed.set(n, { ...k, id: String(k["id"]) });
  const targets = selectByNamesOrIds(req, keyed, "Keytab") ?? [];
  for (const t of targets) collection(state, KEYTABS).items.delete(String(t["name"]));
  return EMPTY;
};
