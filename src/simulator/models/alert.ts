/** Alerts and alert watchers. */
import { type FieldGate, gateFields } from "./versioned.js";

export type Severity = "info" | "warning" | "critical";
export const SEVERITIES: readonly Severity[] = ["info", "warning", "critical"];
export type AlertState = "open" | "closing" | "closed" | "waiting to downgrade";

export interface AlertRec {
  id: string;
  index: number;
  code: number;
  severity: Severity;
  component: string;
  state: AlertState;
  flagged: boolean;
  created: number;
  updated: number;
  notified: number;
  subject: string;
  description: string;
  knowledge_base_url: string;
  action: string;
  variables: Record<string, string>;
}

const ALERT_GATES: readonly FieldGate[] = [["id", "1.8"]];

export function renderAlert(a: AlertRec, version: string): Record<string, unknown> {
  return gateFields({ name: String(a.index), ...a, variables: { ...a.variables } }, version, ALERT_GATES);
}

export interface AlertWatcherRec {
  id: string;
  name: string;
  enabled: boolean;
  minimum_notification_severity: Severity;
}

const WATCHER_GATES: readonly FieldGate[] = [
  ["id", "1.8.1"],
  ["minimum_notification_severity", "1.8.1"],
];

export function renderAlertWatcher(w: AlertWatcherRec, version: string): Record<string, unknown> {
  return gateFields({ ...w }, version, WATCHER_GATES);
}
