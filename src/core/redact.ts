/**
 * Secrets never reach audit records: values under secret-looking keys (passwords, passphrases, keys, tokens,
 * SNMP communities) are replaced, in objects, in JSON typed into a command line (`/array api … '{"password": …}'`
 * is refused, but the line itself is still audited), and after a secret's flag (`--bind-password hunter2` is
 * refused, the flag takes no value, but the line is audited too).
 */

/** Field names whose values are secrets. */
export const SECRET_FIELD = /password|passphrase|secret|private_key|community|(^|[._])token$|connection_key/;

export const REDACTED = "[redacted]";

const JSON_SECRET = /("([A-Za-z0-9_.-]*)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** `--bind-password hunter2` or `--v2c-community=public`: a value typed after a secret's flag (which takes none). */
const OPTION_SECRET = /(--([a-z0-9-]+))(=|\s+)("[^"]*"|'[^']*'|[^\s-]\S*)/gi;

function redactText(s: string): string {
  return s
    .replace(JSON_SECRET, (all, head: string, key: string) =>
      SECRET_FIELD.test(key) ? `${head}"${REDACTED}"` : all,
    )
    .replace(OPTION_SECRET, (all, flag: string, name: string, sep: string) =>
      SECRET_FIELD.test(name.replace(/-/g, "_")) ? `${flag}${sep}${REDACTED}` : all,
    );
}

export function redactSecrets<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] = SECRET_FIELD.test(k) && v !== undefined && v !== null ? REDACTED : redactSecrets(v);
    return out as T;
  }
  return value;
}
