/**
 * What `/array alert …` commands may ask of the running alert engine: the routing that applies to a
 * channel, where an alert was posted, and a test post. Commands get it as `ctx.alerts`; it is absent when
 * the engine does not run (the console), and the commands say so.
 */
import type { MessageRef } from "./pipeline-types.js";

export const SEVERITIES = ["info", "warning", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/** One array alert as the engine keeps it (REST 1.x Alert, normalised). */
export interface AlertSnapshot {
  /** The alert index as a string; the key on the array. */
  name: string;
  index: number;
  code: number;
  severity: Severity;
  component: string;
  /** open | closing | closed | waiting to downgrade (as the array says it). */
  state: string;
  flagged: boolean;
  /** Array time, ms. */
  created: number;
  updated: number;
  subject: string;
  description: string;
  knowledgeBaseUrl?: string;
  action?: string;
}

export interface AlertCommandPort {
  /** Routes that send anything to `channel`, plus "default" when it is a default channel. */
  routesFor(channel: string): { name: string; summary: string }[];
  /** Messages that show alert `name` of `array` (one per routed channel). */
  postedIn(array: string, name: string): Promise<MessageRef[]>;
  /** Posts a sample alert message, marked as a test, in `channel` through the real renderer and chat port. */
  postTest(channel: string, requestedBy: string): Promise<MessageRef>;
  /** Alerts of `array` the engine knows as open or closed at or after `since` (array time): `/array diagnose`. */
  alertsSince(array: string, since: number): Promise<AlertSnapshot[]>;
}
