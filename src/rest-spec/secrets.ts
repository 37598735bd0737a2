/**
 * Which fields hold secrets, and which hold URLs that may carry credentials: the one list every redaction and
 * every refusal reads. The model fields are checked against src/rest-spec/models.ts (generated from the SDK's
 * models) by test/core/redact.test.ts, so a model field that looks secret and is in neither list fails the suite.
 *
 * Keys are compared after parsing, folded: lower case, with `_`, `-`, `.` and spaces removed, so `BIND_PASSWORD`,
 * `bind-password`, `bindPassword` and a JSON `bind\u005fpassword` are one key.
 */
import { MODELS } from "./models.js";

/** Model fields (purity_fb 1.12.3) whose values are secrets. */
export const SECRET_MODEL_FIELDS = [
  "api_token", // Admin: the admin's API token object (its `token`)
  "token", // AdminApiToken
  "password", // Admin, ActiveDirectoryPost
  "old_password", // Admin
  "bind_password", // DirectoryService
  "community", // SnmpV2c
  "auth_passphrase", // SnmpV3
  "privacy_passphrase", // SnmpV3
  "private_key", // Certificate, CertificatePost
  "passphrase", // Certificate, CertificatePost
  "secret_access_key", // ObjectStoreAccessKey(Post), ObjectStoreRemoteCredentials
  "connection_key", // ArrayConnectionKey, ArrayConnectionPost
] as const;

/**
 * Model fields whose names look secret but are not: a pagination cursor, switches and lifetimes of tokens, public
 * keys. Listed so the check over the models can tell "decided not secret" from "forgotten".
 */
export const NOT_SECRET_MODEL_FIELDS = [
  "continuation_token",
  "create_api_token",
  "delete_api_token",
  "api_token_timeout",
  // REST 2.x's name of 1.x `expose`: a flag (true/false), refused from chat by the access policy, never a secret.
  "expose_api_token",
  "access_token_ttl_in_ms",
  "public_key",
  "access_key_id",
  "key_id",
] as const;

/** The bot's own secrets and the array's headers, as they appear in logged objects and configuration. */
export const SECRET_BOT_FIELDS = [
  "api-token",
  "x-auth-token",
  "authorization",
  "secret",
  "session_token",
  "signing_secret",
  "bot_token",
  "app_token",
  "client_secret",
  // OAuth2 API clients (rest-spec/oauth.ts): the signed assertion, the access token it buys, and the form field
  // that carries the assertion; the private key is `private_key` above.
  "access_token",
  "subject_token",
  "id_token",
  "assertion",
] as const;

/** Fields holding URLs (or host specs) that may carry `user:password@`: their credentials are masked. */
export const URL_MODEL_FIELDS = [
  "proxy", // Support
  "uri", // SyslogServer
  "uris", // DirectoryService
  "knowledge_base_url", // Alert
  "relay_host", // Smtp
  "address", // Target, the bot's array configuration
  "management_address", // ArrayConnection
  "url",
] as const;

/**
 * Keys folded and answered, remembered: every cell of every table and every key of every redacted value (audit
 * records, log lines, the raw JSON view) asks, and folding (lower case, a regex) cost more than the rest of a
 * 31-row list's rendering (measured, issue 27). Keys are field names, a few hundred; the bound only keeps odd
 * input (arbitrary JSON keys) from growing the maps.
 */
const MEMO_LIMIT = 4096;
const foldedKeys = new Map<string, string>();
const secretKeys = new Map<string, boolean>();
const secretColumns = new Map<string, boolean>();

/** `BIND_PASSWORD`, `bind-password`, `bindPassword` → "bindpassword". */
export function foldKey(key: string): string {
  let k = foldedKeys.get(key);
  if (k === undefined) {
    k = key.toLowerCase().replace(/[-_.\s]/g, "");
    if (foldedKeys.size >= MEMO_LIMIT) foldedKeys.clear();
    foldedKeys.set(key, k);
  }
  return k;
}

const SECRET = new Set([...SECRET_MODEL_FIELDS, ...SECRET_BOT_FIELDS].map(foldKey));
const NOT_SECRET = new Set(NOT_SECRET_MODEL_FIELDS.map(foldKey));
const URLS = new Set(URL_MODEL_FIELDS.map(foldKey));
/** Names no listed field has but that can only be secrets (a field a later REST version adds). */
// `fleet_key` (REST 2.17+) lets an array join a fleet, as a connection key lets one connect; `keytab_file` (an
// upload's form part) holds a service's Kerberos keys.
const LOOKS_SECRET =
  /password|passphrase|secret|privatekey|connectionkey|fleetkey|keytabfile|apitoken|authtoken|sessiontoken/;

function remember(memo: Map<string, boolean>, key: string, value: boolean): boolean {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** The value under this key is a secret, whatever the key's case or spelling. */
export function isSecretKey(key: string): boolean {
  const known = secretKeys.get(key);
  if (known !== undefined) return known;
  const k = foldKey(key);
  return remember(secretKeys, key, SECRET.has(k) || (!NOT_SECRET.has(k) && LOOKS_SECRET.test(k)));
}

/** A table column's path ("v2c.community", "a.x|b.x") names a secret when any of its keys does. */
export function isSecretColumn(path: string): boolean {
  const known = secretColumns.get(path);
  if (known !== undefined) return known;
  return remember(secretColumns, path, path.split(/[.|]/).some(isSecretKey));
}

/**
 * Secret fields whose type is another model (an admin's `api_token`: {created, expires, token}): an object under
 * such a key is walked field by field, so its dates stay and its token goes.
 */
const SECRET_OBJECTS = new Set(
  Object.values(MODELS).flatMap((m) =>
    Object.entries(m.fields)
      .filter(([name, f]) => isSecretKey(name) && MODELS[f.type] !== undefined)
      .map(([name]) => foldKey(name)),
  ),
);

export function isSecretObjectKey(key: string): boolean {
  return SECRET_OBJECTS.has(foldKey(key));
}

/** The value under this key is a URL whose credentials, if any, must be masked. */
export function isUrlKey(key: string): boolean {
  return URLS.has(foldKey(key));
}

/**
 * A switch that makes the array mint a secret and answer with it (`create_api_token`): chat never sets one, the
 * answer would carry the secret.
 */
export function mintsSecret(key: string): boolean {
  const m = /^(create|delete)[-_]?(.+)$/i.exec(key);
  return m?.[2] !== undefined && isSecretKey(m[2]);
}
