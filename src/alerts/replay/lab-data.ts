/**
 * The lab alert fixture (../shared/data/lab-array-alerts.json: 676 real alerts from a FlashBlade, shaped like
 * REST 2.x) mapped to the 1.x Alert model, plus the open/close events it implies, in time order.
 */
import { z } from "zod";
import { UserFacingError } from "../../errors.js";
import { normaliseSeverity } from "../alert-model.js";
import type { Severity } from "../types.js";

const labAlertSchema = z.looseObject({
  index: z.int(),
  code: z.int(),
  severity: z.string(),
  component_name: z.string().nullable(),
  state: z.string(),
  flagged: z.boolean().default(false),
  created: z.int(),
  updated: z.int(),
  summary: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  action: z.string().nullable().default(null),
  knowledge_base_url: z.string().nullable().default(null),
  variables: z.record(z.string(), z.string().nullable()).nullable().default(null),
});

const labFileSchema = z.looseObject({ items: z.array(labAlertSchema) });

/** One fixture alert in 1.x terms: `component` from component_name, `subject` from summary. */
export interface LabAlert {
  index: number;
  code: number;
  severity: Severity;
  component: string;
  subject: string;
  description: string;
  action: string;
  knowledgeBaseUrl?: string;
  variables: Record<string, string>;
  flagged: boolean;
  created: number;
  updated: number;
  /** State at the end of the fixture: closed, open or closing. */
  finalState: "open" | "closing" | "closed" | "waiting to downgrade";
}

export type LabEvent =
  | { at: number; kind: "open"; alert: LabAlert }
  | { at: number; kind: "close" | "closing"; alert: LabAlert };

export function parseLabAlerts(raw: unknown): LabAlert[] {
  const r = labFileSchema.safeParse(raw);
  if (!r.success) {
    const why = r.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".")}: ${i.message}`)
      .join("; ");
    throw new UserFacingError("REPLAY_BAD_DATA", `The alert fixture is not in the expected shape: ${why}`);
  }
  return r.data.items.map((a) => {
    const finalState = (["open", "closing", "closed", "waiting to downgrade"] as const).find(
      (s) => s === a.state,
    );
    const out: LabAlert = {
      index: a.index,
      code: a.code,
      severity: normaliseSeverity(a.severity),
      component: a.component_name ?? "",
      subject: a.summary ?? "",
      description: a.description ?? "",
      action: a.action ?? "",
      // 1.x variables are a map of strings; the fixture has a few nulls.
      variables: Object.fromEntries(Object.entries(a.variables ?? {}).map(([k, v]) => [k, v ?? ""])),
      flagged: a.flagged,
      created: a.created,
      updated: Math.max(a.updated, a.created),
      finalState: finalState ?? "open",
    };
    if (a.knowledge_base_url) out.knowledgeBaseUrl = a.knowledge_base_url;
    return out;
  });
}

/** Opens at `created`; closes (or starts closing) at `updated`; alerts still open at the end stay open. */
export function labEvents(alerts: readonly LabAlert[]): LabEvent[] {
  const events: LabEvent[] = [];
  for (const a of alerts) {
    events.push({ at: a.created, kind: "open", alert: a });
    if (a.finalState === "closed") events.push({ at: a.updated, kind: "close", alert: a });
    else if (a.finalState === "closing") events.push({ at: a.updated, kind: "closing", alert: a });
  }
  const order = { open: 0, closing: 1, close: 2 } as const;
  return events.sort((x, y) => x.at - y.at || order[x.kind] - order[y.kind] || x.alert.index - y.alert.index);
}
