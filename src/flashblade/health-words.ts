/**
 * How an array's health is said, in one place: `/array arrays`, the detail of /healthz and /readyz and App
 * Home read these, so an array that refuses the bot's token reads "login refused" everywhere rather than "up"
 * in one view and "unreachable" in another.
 */
import type { ArrayHealth } from "./types.js";

/** What the words need of a health snapshot (App Home's sources carry less than the pool's). */
export interface HealthFacts {
  reachable: boolean;
  status?: ArrayHealth["status"];
  refused?: { setting: string };
  lastError?: { message: string };
  down?: { reason: string };
}

/** The short state: up, login refused (check api_token_env), no answer yet, not answering, DOWN. */
export function arrayState(h: HealthFacts): string {
  if (h.refused) return `login refused (check ${h.refused.setting})`;
  if (h.reachable) return "up";
  if (h.status === "unknown") return "no answer yet";
  // A down array that accepted the connection but did not answer in time is hung, not gone: say which.
  return /^no answer within/.test(h.down?.reason ?? h.lastError?.message ?? "") ? "not answering" : "DOWN";
}

/** Why an array cannot be used, for health endpoints: the refusal, the last error, or that it is not asked yet. */
export function unusableDetail(h: HealthFacts): string {
  if (h.refused) return arrayState(h);
  return h.lastError?.message ?? (h.status === "unknown" ? "not contacted yet" : "unreachable");
}
