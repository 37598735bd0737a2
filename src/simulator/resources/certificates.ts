/**
 * /certificates, /certificate-groups and their membership, seen from either side. An imported PEM shows the
 * fields the array reads from it (subject, issuer, key size, validity); the private key and its passphrase
 * are checked against the certificate, kept, and never listed.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody, rejectReadOnly } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import {
  byId,
  EMPTY,
  exclusive,
  type Handler,
  listing,
  ok,
  requireList,
  resolveAll,
  selectByNamesOrIds,
} from "./common.js";
import { collection, type Keyed, keyed } from "./generic.js";

const CERTS = "/certificates";
const GROUPS = "/certificate-groups";
/** Write-only fields of Certificate: never rendered (and not even kept here). */
const SECRET_FIELDS = ["private_key", "passphrase"] as const;
const VALIDITY = ["valid_from", "valid_to"] as const;

/**
 * A certificate as `version` shows it. Validity is kept as 1.x has it, a string of milliseconds since the epoch
 * (Certificate.valid_from/valid_to: str, seeded and imported alike); 2.x types both integer(int64).
 */
function renderCertificate(c: Json, version: string): Json {
  const out = { ...c };
  for (const f of SECRET_FIELDS) delete out[f];
  if (atLeast(version, "2.0"))
    for (const f of VALIDITY) if (typeof out[f] === "string") out[f] = Number(out[f]);
  return out;
}

/** `CN=x\nO=y` (Node's rendering of a distinguished name) as a map. */
function dn(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return out;
}

/** The fields an array derives from an imported certificate. */
export function certificateFields(pem: string): Json {
  let x: X509Certificate;
  try {
    x = new X509Certificate(pem);
  } catch {
    throw badRequest(
      "'certificate' is not a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----).",
    );
  }
  const subject = dn(x.subject);
  const issuer = dn(x.issuer);
  const details = x.publicKey.asymmetricKeyDetails;
  const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
  return {
    common_name: subject.get("CN") ?? null,
    country: subject.get("C") ?? null,
    email: subject.get("emailAddress") ?? null,
    issued_by: issuer.get("CN") ?? issuer.get("O") ?? null,
    issued_to: subject.get("CN") ?? null,
    key_size: details?.modulusLength ?? curveBits[details?.namedCurve ?? ""] ?? null,
    locality: subject.get("L") ?? null,
    organization: subject.get("O") ?? null,
    organizational_unit: subject.get("OU") ?? null,
    state: subject.get("ST") ?? null,
    valid_from: String(Date.parse(x.validFrom)),
    valid_to: String(Date.parse(x.validTo)),
  };
}

function checkKey(pem: string, key: string, passphrase: string | undefined): void {
  let matches = false;
  try {
    matches = new X509Certificate(pem).checkPrivateKey(
      createPrivateKey(passphrase === undefined ? key : { key, passphrase }),
    );
  } catch {
    throw badRequest("'private_key' cannot be read (PEM, and 'passphrase' if it is encrypted).");
  }
  if (!matches) throw badRequest("'private_key' does not belong to the certificate.");
}

const certBody = z
  .strictObject({
    certificate: z.string().min(1),
    certificate_type: z.enum(["array", "external"]),
    intermediate_certificate: z.string(),
    passphrase: z.string(),
    private_key: z.string().min(1),
  })
  .partial();
const DERIVED = ["id", "common_name", "country", "email", "issued_by", "issued_to", "key_size", "locality"];
const READ_ONLY = [
  ...DERIVED,
  "organization",
  "organizational_unit",
  "state",
  "status",
  "valid_from",
  "valid_to",
];

/** The certificate after an import: the key is checked against it and goes no further than the check. */
function imported(body: z.output<typeof certBody>, base: Json): Json {
  const { private_key: key, passphrase, ...fields } = body;
  const pem = body.certificate ?? String(base["certificate"] ?? "");
  if (body.certificate === undefined && key === undefined) return { ...base, ...fields };
  if (key !== undefined) checkKey(pem, key, passphrase);
  return {
    ...base,
    ...fields,
    ...certificateFields(pem),
    certificate: pem,
    certificate_type: body.certificate_type ?? base["certificate_type"] ?? (key ? "array" : "external"),
    intermediate_certificate: body.intermediate_certificate ?? base["intermediate_certificate"] ?? null,
    status: "imported",
  };
}

export const listCertificates: Handler = (req, state) =>
  listing(
    [...collection(state, CERTS).items.values()].map((c) => renderCertificate(c, req.version)),
    req,
    { noun: "Certificate" },
  );

export const createCertificates: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0) throw badRequest("Import one certificate at a time.");
  const items = collection(state, CERTS).items;
  if (items.has(name)) throw badRequest(`Certificate '${name}' already exists.`, name);
  const raw = bodyObject(req, "CertificatePost");
  rejectReadOnly(raw, ["name", ...READ_ONLY], "CertificatePost");
  const body = parseBody(certBody, raw, "CertificatePost", req.version);
  if (body.certificate === undefined) throw badRequest("'certificate' is required in CertificatePost.");
  const cert = imported(body, { name, id: state.newId() });
  items.set(name, cert);
  return ok([renderCertificate(cert, req.version)]);
};

export const updateCertificates: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, CERTS), "Certificate") ?? [];
  const raw = bodyObject(req, "Certificate");
  rejectReadOnly(raw, ["name", ...READ_ONLY], "Certificate");
  const body = parseBody(certBody, raw, "Certificate", req.version);
  const items = collection(state, CERTS).items;
  const next = targets.map((t) => imported(body, items.get(t.name) as Json));
  for (const c of next) items.set(String(c["name"]), c);
  return ok(next.map((c) => renderCertificate(c, req.version)));
};

export const deleteCertificates: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, CERTS), "Certificate") ?? [];
  for (const t of targets) {
    collection(state, CERTS).items.delete(t.name);
    for (const g of collection(state, GROUPS).items.values())
      g["members"] = members(g).filter((m) => m !== t.name);
  }
  return EMPTY;
};

function members(group: Json): string[] {
  return (group["members"] as string[] | undefined) ?? [];
}

function renderGroup(g: Json): Json {
  const { members: _m, ...out } = g;
  return out;
}

export const listCertificateGroups: Handler = (req, state) =>
  listing([...collection(state, GROUPS).items.values()].map(renderGroup), req, { noun: "Certificate group" });

export const createCertificateGroups: Handler = (req, state) => {
  const names = requireList(req, "names");
  const items = collection(state, GROUPS).items;
  for (const n of names) if (items.has(n)) throw badRequest(`Certificate group '${n}' already exists.`, n);
  const created = names.map((name) => ({ name, id: state.newId(), members: [] as string[] }));
  for (const g of created) items.set(g.name, g);
  return ok(created.map(renderGroup));
};

export const deleteCertificateGroups: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, keyed(state, GROUPS), "Certificate group") ?? [];
  for (const t of targets) collection(state, GROUPS).items.delete(t.name);
  return EMPTY;
};

/** `<prefix>_names` or `<prefix>_ids` resolved, or undefined when neither is given. */
function pick(
  req: SimRequest,
  state: SimState,
  prefix: "certificate" | "certificate_group",
): Keyed[] | undefined {
  const path = prefix === "certificate" ? CERTS : GROUPS;
  const what = prefix === "certificate" ? "Certificate" : "Certificate group";
  exclusive(req, `${prefix}_names`, `${prefix}_ids`);
  const all = keyed(state, path);
  const names = req.query.list(`${prefix}_names`)?.filter((s) => s !== "");
  if (names?.length) return resolveAll(names, (n) => all.get(n), what);
  const ids = req.query.list(`${prefix}_ids`)?.filter((s) => s !== "");
  if (ids?.length) return resolveAll(ids, (i) => byId(all.values()).get(i), `${what} with id`);
  return undefined;
}

function pair(group: Keyed, cert: Keyed): Json {
  return {
    group: { name: group.name, id: group.id, resource_type: "certificate-groups" },
    member: { name: cert.name, id: cert.id, resource_type: "certificates" },
  };
}

export const listGroupMembers: Handler = (req, state) => {
  const groups = pick(req, state, "certificate_group") ?? [...keyed(state, GROUPS).values()];
  const certs = pick(req, state, "certificate");
  const wanted = certs && new Set(certs.map((c) => c.name));
  const all = keyed(state, CERTS);
  const out: Json[] = [];
  for (const g of groups) {
    for (const m of members(g)) {
      const cert = all.get(m);
      if (cert && (!wanted || wanted.has(m))) out.push(pair(g, cert));
    }
  }
  return listing(out, req, { nameParams: [] });
};

function both(req: SimRequest, state: SimState): { groups: Keyed[]; certs: Keyed[] } {
  const groups = pick(req, state, "certificate_group");
  const certs = pick(req, state, "certificate");
  if (!groups) throw badRequest("'certificate_group_names' or 'certificate_group_ids' is required.");
  if (!certs) throw badRequest("'certificate_names' or 'certificate_ids' is required.");
  return { groups, certs };
}

export const addGroupMembers: Handler = (req, state) => {
  const { groups, certs } = both(req, state);
  for (const g of groups)
    for (const c of certs)
      if (members(g).includes(c.name))
        throw badRequest(`Certificate '${c.name}' is already in certificate group '${g.name}'.`, c.name);
  const items = collection(state, GROUPS).items;
  for (const g of groups) {
    const stored = items.get(g.name) as Json;
    stored["members"] = [...members(stored), ...certs.map((c) => c.name)];
  }
  return ok(groups.flatMap((g) => certs.map((c) => pair(g, c))));
};

export const removeGroupMembers: Handler = (req, state) => {
  const { groups, certs } = both(req, state);
  for (const g of groups)
    for (const c of certs)
      if (!members(g).includes(c.name))
        throw badRequest(`Certificate '${c.name}' is not in certificate group '${g.name}'.`, c.name);
  const gone = new Set(certs.map((c) => c.name));
  const items = collection(state, GROUPS).items;
  for (const g of groups) {
    const stored = items.get(g.name) as Json;
    stored["members"] = members(stored).filter((m) => !gone.has(m));
  }
  return EMPTY;
};
