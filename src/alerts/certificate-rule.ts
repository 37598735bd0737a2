/**
 * The `certificate_expiry` rule: an alert the bot raises itself when a certificate on an array ends within
 * the configured number of days. One alert per certificate, an ordinary snapshot to the planner (routing,
 * quiet hours, cards, snoozes apply unchanged): posted once when it comes within reach, left alone while it
 * stays (the text names the date, not a countdown, so nothing changes day by day), closed when the certificate
 * is renewed or removed.
 */
import type { AlertsConfig } from "../config/alerts.js";
import { formatDay } from "../core/presentation/format-time.js";
import type { Logger } from "../logger.js";
import { keyPrefix } from "../store/keys.js";
import type { Store } from "../store/types.js";
import { isClosed } from "./alert-model.js";
import { NS } from "./repo.js";
import type { AlertRecord, AlertSnapshot, AlertSource, Clock } from "./types.js";

export const CERTIFICATE_EXPIRY_PREFIX = "bot.certificate-expiry.";
/** Beside the capacity forecast's 9900, outside Purity's alert codes, so routes by code can single it out. */
export const CERTIFICATE_EXPIRY_CODE = 9901;
const DAY = 86_400_000;

type RuleConfig = NonNullable<AlertsConfig["certificate_expiry"]>;

export interface CertificateEnd {
  name: string;
  /** ms since the epoch. */
  validTo: number;
}

/** Snapshots for the planner: one open per certificate within reach, one closing per earlier alert now out. */
export function certificateExpirySnapshots(
  rule: RuleConfig,
  array: string,
  certs: readonly CertificateEnd[],
  previous: readonly AlertRecord[],
  now: number,
): AlertSnapshot[] {
  const prev = new Map(previous.map((r) => [r.name, r]));
  const out: AlertSnapshot[] = [];
  const due = new Set<string>();
  for (const c of certs) {
    if (!Number.isFinite(c.validTo) || c.validTo - now >= rule.days * DAY) continue;
    const name = `${CERTIFICATE_EXPIRY_PREFIX}${c.name}`;
    due.add(name);
    const before = prev.get(name);
    const open = before !== undefined && !isClosed(before);
    const expired = c.validTo <= now;
    const description = expired
      ? `Certificate ${c.name} on ${array} expired on ${formatDay(c.validTo)}: whatever uses it fails its TLS checks. Import a renewed one with /array certificate update ${c.name}.`
      : `Certificate ${c.name} on ${array} expires on ${formatDay(c.validTo)}, within ${rule.days} days. Import a renewed one with /array certificate update ${c.name}.`;
    out.push({
      ...base(c.name, name, rule, array),
      state: "open",
      created: open && before ? before.created : now,
      // Only a changed text is news (expired now, renewed to another date still within reach).
      updated:
        open && before && before.description === description
          ? before.updated
          : Math.max(now, (before?.updated ?? 0) + 1),
      description,
    });
  }
  for (const r of previous) {
    if (due.has(r.name) || isClosed(r)) continue;
    out.push({
      ...base(r.component, r.name, rule, array),
      state: "closed",
      created: r.created,
      updated: Math.max(now, r.updated + 1),
      description: `Certificate ${r.component} on ${array} was renewed or removed: it no longer ends within ${rule.days} days.`,
    });
  }
  return out;
}

function base(cert: string, name: string, rule: RuleConfig, array: string) {
  return {
    name,
    index: 0,
    code: CERTIFICATE_EXPIRY_CODE,
    severity: rule.severity,
    component: cert,
    flagged: false,
    subject: `Certificate ${cert} on ${array} expires within ${rule.days} days`,
    action: `/array certificate list --array ${array}`,
  };
}

/**
 * The rule's check for one poll: nothing unless the rule is on, the source reads certificates and a check is
 * due for the array (at most every `check_every`). A failed read is logged and retried at the next check.
 */
export function certificateCheck(deps: {
  cfg: AlertsConfig;
  source: AlertSource;
  store: Store;
  clock: Clock;
}): (array: string, log: Logger) => Promise<AlertSnapshot[]> {
  const checked = new Map<string, number>();
  return async (array, log) => {
    const rule = deps.cfg.certificate_expiry;
    if (!rule || !deps.source.certificates) return [];
    const now = deps.clock.now();
    const last = checked.get(array);
    if (last !== undefined && now - last < rule.check_every) return [];
    checked.set(array, now);
    try {
      const certs = await deps.source.certificates(array);
      const previous = (await deps.store.list<AlertRecord>(NS.alert, { prefix: keyPrefix(array) }))
        .map((e) => e.value)
        .filter((r) => r.name.startsWith(CERTIFICATE_EXPIRY_PREFIX));
      return certificateExpirySnapshots(rule, array, certs, previous, now);
    } catch (err) {
      log.warn({ err }, "certificate expiry check failed");
      return [];
    }
  };
}
