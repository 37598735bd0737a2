import type { AlertsConfig, MaintenanceConfig } from "../config/alerts.js";
import { selectorMatches } from "./router.js";
import { type Severity, severityRank } from "./types.js";

/** Where and when a new card is posted once routing has picked its channel. */
export interface Delivery {
  channel: string;
  /** Hold the post until then (bot clock); undefined = post now. */
  holdUntil?: number;
  /** Why it is held or redirected. */
  reason?: "quiet hours" | "maintenance";
}

export interface DeliveryPolicy {
  decide(channel: string, array: string, tags: readonly string[], severity: Severity, now: number): Delivery;
  /** The maintenance window covering `array` at `now`, if any. */
  maintenance(array: string, tags: readonly string[], now: number): MaintenanceConfig | undefined;
}

/** Minutes since local midnight in `timeZone`, and the ms already elapsed in the current minute. */
function localMinute(fmt: Intl.DateTimeFormat, now: number): { minute: number; intoMinuteMs: number } {
  let h = 0;
  let m = 0;
  for (const p of fmt.formatToParts(now)) {
    if (p.type === "hour") h = Number(p.value) % 24;
    if (p.type === "minute") m = Number(p.value);
  }
  return { minute: h * 60 + m, intoMinuteMs: now % 60_000 };
}

/**
 * Quiet hours and maintenance windows. Routing always records the alert; this only decides whether the post
 * waits (held until the window ends) or goes at once to a low-noise channel when one is configured.
 */
export function createDeliveryPolicy(
  cfg: Pick<AlertsConfig, "quiet_hours" | "maintenance">,
  timeZone = "UTC",
): DeliveryPolicy {
  const fmt = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const q = cfg.quiet_hours;

  const quietEnd = (now: number): number | undefined => {
    if (!q || q.start === q.end) return undefined;
    const { minute, intoMinuteMs } = localMinute(fmt, now);
    const inside =
      q.start < q.end ? minute >= q.start && minute < q.end : minute >= q.start || minute < q.end;
    if (!inside) return undefined;
    // A first guess in elapsed time, then corrected in the zone's wall clock: on a DST night the night is an
    // hour shorter or longer than its wall-clock span, and the hold must end when the clock says `end`.
    let end = now + ((q.end - minute + 1440) % 1440) * 60_000 - intoMinuteMs;
    for (let i = 0; i < 2; i++) {
      let off = (q.end - localMinute(fmt, end).minute + 1440) % 1440;
      if (off > 720) off -= 1440;
      if (off === 0) break;
      end += off * 60_000;
    }
    return end;
  };

  const maintenance = (array: string, tags: readonly string[], now: number) =>
    cfg.maintenance.find(
      (m) => now >= m.start && now < m.end && m.arrays.some((s) => selectorMatches(s, array, tags)),
    );

  return {
    maintenance,
    decide(channel, array, tags, severity, now) {
      // A hold can end inside another window (maintenance ending at 23:00 in quiet hours), so look again there.
      let at = now;
      let out: Delivery = { channel };
      for (let i = 0; i < 4; i++) {
        const m = maintenance(array, tags, at);
        if (m) {
          if (m.channel) return { channel: m.channel, reason: "maintenance" };
          out = { channel, holdUntil: m.end, reason: "maintenance" };
          at = m.end;
          continue;
        }
        const qEnd = q && severityRank(severity) < severityRank(q.bypass_severity) ? quietEnd(at) : undefined;
        if (qEnd !== undefined && q) {
          if (q.channel)
            return out.holdUntil === undefined ? { channel: q.channel, reason: "quiet hours" } : out;
          out = { channel, holdUntil: qEnd, reason: out.reason ?? "quiet hours" };
          at = qEnd;
          continue;
        }
        break;
      }
      return out;
    },
  };
}
