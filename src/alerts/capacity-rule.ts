/**
 * The `capacity_forecast` rule: an alert the bot raises itself when an array's capacity forecast says it
 * reaches the configured level (90 %) in fewer than N days. It is an ordinary alert snapshot to the planner,
 * so routing, quiet hours, cards, snoozes and flap handling apply unchanged: posted once when the forecast
 * crosses in, updated in place while it stays, closed when it moves out (or the level is reached and the
 * array's own capacity alerts take over).
 */
import type { AlertsConfig } from "../config/alerts.js";
import type { CapacityForecast } from "../core/forecast/capacity.js";
import { formatDay } from "../core/presentation/format-time.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/types.js";
import { alertKey } from "./alert-model.js";
import { NS } from "./repo.js";
import type { AlertRecord, AlertSnapshot, AlertSource, Clock } from "./types.js";

/** Names of the bot's own alerts start with this; the array's are numbers. */
const BOT_PREFIX = "bot.";
export const CAPACITY_FORECAST_NAME = `${BOT_PREFIX}capacity-forecast`;
/** Outside Purity's alert code range, so routes by code can single it out. */
export const CAPACITY_FORECAST_CODE = 9900;
const DAY = 86_400_000;

export function isBotAlert(name: string): boolean {
  return name.startsWith(BOT_PREFIX);
}

type RuleConfig = NonNullable<AlertsConfig["capacity_forecast"]>;

const date = formatDay;

/**
 * The snapshot to hand the planner after a forecast, or undefined when nothing is to be said (not crossing
 * and not open). `now` is the array's time of the newest sample.
 */
export function capacityForecastSnapshot(
  rule: RuleConfig,
  f: CapacityForecast,
  prev: AlertRecord | undefined,
  now: number,
): AlertSnapshot | undefined {
  const level = rule.level / 100;
  const c = f.crossings.find((x) => Math.abs(x.level - level) < 1e-9);
  const open = prev !== undefined && prev.state !== "closed";
  const when = c?.reached ? now : c?.at;
  const crossing = f.fit !== undefined && when !== undefined && when - now < rule.days * DAY;
  if (!crossing && !open) return undefined;
  const base = {
    name: CAPACITY_FORECAST_NAME,
    index: 0,
    code: CAPACITY_FORECAST_CODE,
    severity: rule.severity,
    component: "capacity",
    flagged: false,
    subject: `Capacity forecast: ${f.array} reaches ${rule.level} % in less than ${rule.days} days`,
    action: `/array space forecast --array ${f.array}`,
  };
  if (!crossing) {
    if (!prev) return undefined;
    return {
      ...base,
      state: "closed",
      created: prev.created,
      updated: Math.max(now, prev.updated + 1),
      description: `The forecast moved out: ${rule.level} % is now more than ${rule.days} days away, or the growth is gone.`,
    };
  }
  const range =
    c?.earliest !== undefined && c.latest !== undefined
      ? ` (between ${date(c.earliest)} and ${date(c.latest)})`
      : "";
  const growth = f.perDay ? ` Growth ${(f.perDay.best / 2 ** 40).toFixed(2)} TiB/day.` : "";
  const description = c?.reached
    ? `${f.array} is already at ${rule.level} % of its capacity.${growth}`
    : `${f.array} is forecast to reach ${rule.level} % on ${date(when ?? now)}, in ${Math.max(0, Math.round(((when ?? now) - now) / DAY))} days${range}.${growth}`;
  return {
    ...base,
    state: "open",
    created: open && prev ? prev.created : now,
    // Only a changed description is news; the same text keeps the old `updated` so the card is left alone.
    updated:
      open && prev && prev.description === description
        ? prev.updated
        : Math.max(now, (prev?.updated ?? 0) + 1),
    description,
  };
}

/**
 * The rule's check for one poll: undefined unless the rule is on, the source can forecast and a check is
 * due for the array (at most every `check_every`). A failed forecast is logged and retried at the next
 * check; it never fails the poll of the array's own alerts.
 */
export function forecastCheck(deps: {
  cfg: AlertsConfig;
  source: AlertSource;
  store: Store;
  clock: Clock;
}): (array: string, log: Logger) => Promise<AlertSnapshot | undefined> {
  const checked = new Map<string, number>();
  return async (array, log) => {
    const rule = deps.cfg.capacity_forecast;
    if (!rule || !deps.source.capacityForecast) return undefined;
    const last = checked.get(array);
    if (last !== undefined && deps.clock.now() - last < rule.check_every) return undefined;
    checked.set(array, deps.clock.now());
    try {
      const f = await deps.source.capacityForecast(array, rule.window);
      const prev = await deps.store.get<AlertRecord>(NS.alert, alertKey(array, CAPACITY_FORECAST_NAME));
      const now = f.history[f.history.length - 1]?.[0] ?? deps.clock.now();
      return capacityForecastSnapshot(rule, f, prev, now);
    } catch (err) {
      log.warn({ err }, "capacity forecast failed");
      return undefined;
    }
  };
}
