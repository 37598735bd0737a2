/** Every successful mutating call leaves an /audits entry, as on a real array (REST 1.9 Audit shape). */
import type { SimState } from "../state.js";
import type { SimRequest } from "../types.js";

/** Audits kept; older entries roll off so a long-running simulator does not grow without bound. */
export const MAX_AUDITS = 10_000;

const SECRET = /pass|secret|token|private_key|community|connection_key/i;

const VERB: Record<string, string> = { POST: "create", PATCH: "update", DELETE: "delete" };

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET.test(k) ? "****" : redact(v),
      ]),
    );
  }
  return value;
}

function describe(req: SimRequest): string {
  const parts: string[] = [];
  for (const [k, v] of req.query.raw) parts.push(`${k}=${SECRET.test(k) ? "****" : v}`);
  if (req.body !== undefined && req.body !== null) parts.push(JSON.stringify(redact(req.body)));
  return parts.join(" ");
}

export function recordAudit(state: SimState, req: SimRequest): void {
  const seq = (state.audits.at(-1) ? Number(state.audits.at(-1)?.name) : 0) + 1;
  state.audits.push({
    id: state.newId(),
    name: String(seq),
    arguments: describe(req),
    command: req.path.slice(1),
    subcommand: VERB[req.method] ?? req.method.toLowerCase(),
    ip_address: "127.0.0.1",
    time: state.clock(),
    user: req.user,
    user_agent: "",
    user_interface: "REST",
  });
  if (state.audits.length > MAX_AUDITS) state.audits.splice(0, state.audits.length - MAX_AUDITS);
}
