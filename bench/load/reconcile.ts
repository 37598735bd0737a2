/**
 * Reconciliation of a load run: what each simulated array actually did (its own audit log of successful
 * changes) against the bot's audit records. No effect lost (the bot said "done" and the array has it), none
 * applied twice, and none applied that the bot did not report (except where the bot said the outcome is
 * unknown because the answer was lost).
 */
import type { AuditRecord } from "../../src/core/audit.js";
import type { Simulator } from "../../src/simulator/index.js";

export interface Reconciliation {
  ok: boolean;
  /** Changes the arrays applied, by kind. */
  applied: Record<string, number>;
  appliedTwice: string[];
  lost: string[];
  unreported: string[];
  driverErrors: string[];
}

const OPS: Record<string, string> = {
  "fs.create": "create",
  "fs.destroy": "destroy",
  "fs.eradicate": "eradicate",
};

function simEffects(sim: Simulator): string[] {
  const out: string[] = [];
  for (const a of sim.state.audits) {
    if (a.command !== "file-systems") continue;
    // The name is in the query (name= or names=) or, for a create, in the body.
    const name = (/(?:^|\s)names?=([^\s&]+)/.exec(a.arguments) ?? /"name":"([^"]+)"/.exec(a.arguments))?.[1];
    if (name === undefined || !name.startsWith("ld-")) continue;
    const op =
      a.subcommand === "create"
        ? "create"
        : a.subcommand === "delete"
          ? "eradicate"
          : a.arguments.includes('"destroyed":true')
            ? "destroy"
            : "update";
    out.push(`${sim.arrayName}|${op}|${decodeURIComponent(name)}`);
  }
  return out;
}

export function reconcile(
  sims: readonly Simulator[],
  audits: readonly AuditRecord[],
  driverErrors: string[],
): Reconciliation {
  const counts = new Map<string, number>();
  for (const sim of sims) for (const k of simEffects(sim)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const keyOf = (r: AuditRecord) =>
    `${r.arrays[0] ?? "?"}|${OPS[r.command] ?? r.command}|${String(r.args["name"])}`;
  const done = new Set<string>();
  const unknown = new Set<string>();
  for (const r of audits) {
    if (OPS[r.command] === undefined) continue;
    const carriedOut = r.decision === "allowed" || r.decision === "confirmed" || r.decision === "approved";
    if (carriedOut && r.outcome === "ok") done.add(keyOf(r));
    if (r.errorCode === "ARRAY_OUTCOME_UNKNOWN") unknown.add(keyOf(r));
  }
  const applied: Record<string, number> = {};
  for (const [k, n] of counts) {
    const op = k.split("|")[1] ?? "?";
    applied[op] = (applied[op] ?? 0) + n;
  }
  const appliedTwice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  const lost = [...done].filter((k) => !counts.has(k));
  const unreported = [...counts.keys()].filter((k) => !done.has(k) && !unknown.has(k));
  return {
    ok:
      appliedTwice.length === 0 && lost.length === 0 && unreported.length === 0 && driverErrors.length === 0,
    applied,
    appliedTwice,
    lost,
    unreported,
    driverErrors: driverErrors.slice(0, 20),
  };
}
