import { z } from "zod";
import { joinKey } from "../store/keys.js";
import { type AlertSnapshot, type RawAlert, SEVERITIES, type Severity } from "./types.js";

/**
 * The array's Alert (REST 1.2–1.12) as the engine accepts it. Arrays leave fields out on older versions, so
 * everything but `name` has a default; the SDK does not check severity or state values, so neither do we
 * beyond mapping an unknown severity to "warning" (never silently dropping an alert).
 */
const rawAlertSchema = z.looseObject({
  name: z.union([z.string().min(1), z.number().transform(String)]),
  index: z.number().int().optional(),
  code: z.number().int().optional(),
  severity: z.string().optional(),
  component: z.string().nullish(),
  state: z.string().optional(),
  flagged: z.boolean().optional(),
  created: z.number().optional(),
  updated: z.number().optional(),
  subject: z.string().nullish(),
  description: z.string().nullish(),
  knowledge_base_url: z.string().nullish(),
  action: z.string().nullish(),
});

export function normaliseSeverity(s: string | undefined): Severity {
  const v = (s ?? "").toLowerCase();
  return (SEVERITIES as readonly string[]).includes(v) ? (v as Severity) : "warning";
}

export type ParsedAlert = { ok: true; alert: AlertSnapshot } | { ok: false; problem: string };

export function parseAlert(raw: RawAlert): ParsedAlert {
  const r = rawAlertSchema.safeParse(raw);
  if (!r.success) return { ok: false, problem: r.error.issues.map((i) => i.message).join("; ") };
  const a = r.data;
  const index = a.index ?? Number.parseInt(a.name, 10);
  const created = a.created ?? a.updated ?? 0;
  const out: AlertSnapshot = {
    name: a.name,
    index: Number.isFinite(index) ? index : 0,
    code: a.code ?? 0,
    severity: normaliseSeverity(a.severity),
    component: a.component ?? "",
    state: a.state ?? "open",
    flagged: a.flagged ?? false,
    created,
    updated: a.updated ?? created,
    subject: a.subject ?? "",
    description: a.description ?? "",
  };
  if (a.knowledge_base_url) out.knowledgeBaseUrl = a.knowledge_base_url;
  if (a.action) out.action = a.action;
  return { ok: true, alert: out };
}

export function isClosed(a: Pick<AlertSnapshot, "state">): boolean {
  return a.state === "closed";
}

/** Store key of an alert: array, then the alert's name (its index). */
export function alertKey(array: string, name: string): string {
  return joinKey(array, name);
}

/** An alert family: the same code on the same component of the same array, however often it reopens. */
export function familyKey(array: string, a: Pick<AlertSnapshot, "code" | "component">): string {
  return joinKey(array, a.code, a.component);
}

/**
 * A short title: the array's subject when it sent one, else code and component. The code is labelled as a
 * code: "alert N" always means the index people type into `alert show`.
 */
export function alertTitle(a: Pick<AlertSnapshot, "subject" | "code" | "component">): string {
  if (a.subject) return a.subject;
  return a.component ? `Code ${a.code} on ${a.component}` : `Code ${a.code}`;
}
