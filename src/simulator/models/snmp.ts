/**
 * SNMP agents and managers as arrays list them: both the `v2c` and the `v3` block, every field present, the
 * block of the version not in use all null (Pure's Ansible modules read `v3.auth_passphrase` on a v2c manager).
 */
import type { Json } from "./body.js";

export const SNMP_PATHS: ReadonlySet<string> = new Set(["/snmp-agents", "/snmp-managers"]);

const V2C_FIELDS = ["community"] as const;
const V3_FIELDS = [
  "auth_passphrase",
  "auth_protocol",
  "privacy_passphrase",
  "privacy_protocol",
  "user",
] as const;

function block(fields: readonly string[], from: unknown, inUse: boolean): Json {
  const given = inUse && from !== null && typeof from === "object" ? (from as Json) : {};
  return Object.fromEntries(fields.map((f) => [f, given[f] ?? null]));
}

/** The item with both version blocks filled; `version` says which is in use (v2c when unset). */
export function renderSnmp(item: Json): Json {
  const version = item["version"] === "v3" ? "v3" : "v2c";
  return {
    ...item,
    version,
    v2c: block(V2C_FIELDS, item["v2c"], version === "v2c"),
    v3: block(V3_FIELDS, item["v3"], version === "v3"),
  };
}
