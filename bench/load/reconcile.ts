/**
 * Reconciliation of a load run: what each simulated array actually did (its own audit log of successful
 * changes) against the bot's audit records. No effect lost (the bot said "done" and the array has it), none
 * applied twice, and none applied that the bot did not report (except where the bot said the outcome is
 * unknown because the answer was lost).
 */
import type { AuditRecord, AuditSink } from "../../src/core/audit/audit.js";
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

/** The changes one array applied, as `array|op|name`, from its own audit log. */
export function simEffects(sim: Simulator): string[] {
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

/** What reconciliation needs of one audit record: its effect key, and whether the bot said done or unknown. */
export interface AuditEntry {
  key: string;
  done: boolean;
  unknown: boolean;
  /** Why not done, when the bot said so: names what the bot answered for an effect it did not report. */
  code?: string;
}

/**
 * The bot's audit sink in the load test: keeps only the entries of the file-system changes reconciled, a few
 * dozen bytes each, not whole records (which would be the load's memory, not the bot's).
 */
export function reconcileSink(): AuditSink & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    entries,
    write(r: AuditRecord) {
      const op = OPS[r.command];
      if (op === undefined) return;
      const carriedOut = r.decision === "allowed" || r.decision === "confirmed" || r.decision === "approved";
      entries.push({
        key: `${r.arrays[0] ?? "?"}|${op}|${String(r.args["name"])}`,
        done: carriedOut && r.outcome === "ok",
        unknown: r.errorCode === "ARRAY_OUTCOME_UNKNOWN",
        ...(r.errorCode === undefined ? {} : { code: r.errorCode }),
      });
    },
  };
}

/** `effects`: what the arrays applied (simEffects of each array); `audits`: the bot's, from reconcileSink. */
export function reconcile(
  effects: readonly string[],
  audits: readonly AuditEntry[],
  driverErrors: string[],
): Reconciliation {
  const counts = new Map<string, number>();
  for (const k of effects) counts.set(k, (counts.get(k) ?? 0) + 1);
  const done = new Set(audits.filter((a) => a.done).map((a) => a.key));
  const unknown = new Set(audits.filter((a) => a.unknown).map((a) => a.key));
  const applied: Record<string, number> = {};
  for (const [k, n] of counts) {
    const op = k.split("|")[1] ?? "?";
    applied[op] = (applied[op] ?? 0) + n;
  }
  const appliedTwice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  const lost = [...done].filter((k) => !counts.has(k));
  // Each with what the bot recorded for it instead (its error codes), or that it recorded nothing.
  const said = (k: string) =>
    [...new Set(audits.filter((a) => a.key === k).map((a) => a.code ?? "no code"))].join(", ") || "no record";
  const unreported = [...counts.keys()]
    .filter((k) => !done.has(k) && !unknown.has(k))
    .map((k) => `${k} (the bot recorded: ${said(k)})`);
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
