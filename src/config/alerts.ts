/**
 * The `alerts:` and `store:` sections of the configuration: polling, routing of array alerts to channels, quiet
 * hours, maintenance windows, noise control, and where the bot keeps its state.
 */
import { z } from "zod";
import { parseDuration } from "../vocabulary.js";
import { redisStoreSchema } from "./store.js";

const channelId = z
  .string()
  .regex(
    /^[CGD][A-Z0-9]{2,30}$/,
    "use the channel ID (C…, G…), not its #name: channel names change, IDs do not",
  );

/** A duration as text ("30s", "10m", "30d") or milliseconds. */
const duration = (example: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const ms = typeof v === "number" ? (Number.isSafeInteger(v) && v > 0 ? v : undefined) : parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({ code: "custom", message: `"${String(v)}" is not a duration; write e.g. ${example}` });
      return z.NEVER;
    }
    return ms;
  });

const severity = z.enum(["info", "warning", "critical"]);

/** "HH:MM", 24-hour clock. */
const clock = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'write a 24-hour time such as "22:00"')
  .transform((v) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3)));

const instant = z.string().transform((v, ctx) => {
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v)
    ? Date.parse(v)
    : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({
      code: "custom",
      message: `"${v}" is not a date and time with zone, e.g. 2025-05-01T22:00:00Z`,
    });
    return z.NEVER;
  }
  return ms;
});

/** Array selectors, as elsewhere in the config: a name, "tag:<tag>" or "all". */
const arraySelectors = z.array(z.string().min(1)).min(1);

const routeSchema = z
  .strictObject({
    name: z.string().min(1).max(64),
    arrays: arraySelectors.optional(),
    /** Exact severities. */
    severity: z.array(severity).min(1).optional(),
    /** This severity and above. */
    min_severity: severity.optional(),
    codes: z.array(z.int().nonnegative()).min(1).optional(),
    /** Component names; `*` matches any characters. */
    components: z.array(z.string().min(1)).min(1).optional(),
    channels: z.array(channelId).min(1),
  })
  .refine((r) => !(r.severity && r.min_severity), {
    message: "give either severity (a list) or min_severity, not both",
  });
export type RouteConfig = z.output<typeof routeSchema>;

const quietHoursSchema = z.strictObject({
  start: clock,
  end: clock,
  /** Alerts at or above this severity are posted at once anyway. */
  bypass_severity: severity.default("critical"),
  /** Post held alerts here at once instead of waiting for the end of quiet hours. */
  channel: channelId.optional(),
});

const maintenanceSchema = z
  .strictObject({
    arrays: arraySelectors,
    start: instant,
    end: instant,
    reason: z.string().max(200).optional(),
    /** Post here at once instead of holding alerts until the window ends. */
    channel: channelId.optional(),
  })
  .refine((m) => m.end > m.start, { message: "end must be after start" });
export type MaintenanceConfig = z.output<typeof maintenanceSchema>;

export const alertsConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    poll_interval: duration("30s").default(30_000),
    /**
     * Each array polls in its own slot of the interval (the interval divided by the number of arrays, in name
     * order), so many arrays never poll in step; each poll is moved by up to this fraction of that slot.
     */
    jitter: z.number().min(0).max(0.5).default(0.1),
    /** How often the full list of open alerts is re-read, so nothing an incremental read missed stays unseen. */
    reconcile_every: duration("10m").default(10 * 60_000),
    max_concurrent_polls: z.int().min(1).max(256).default(16),
    /** More new alerts than this from one array in one poll become one summary message per channel. */
    storm_threshold: z.int().min(1).max(1000).default(10),
    /**
     * The same alert (code and kind of component) opened on more arrays than this within one poll interval
     * becomes one fleet summary message per channel; the first arrays keep the cards already posted.
     */
    fleet_storm_arrays: z.int().min(1).max(10_000).default(3),
    flap: z
      .strictObject({
        /** A family (same array, code and component) that reopens within this time of its last activity reuses its card. */
        window: duration("30d").default(30 * 24 * 3600_000),
        /** Reopenings inside the window from which the card is labelled flapping. */
        reopenings: z.int().min(1).max(100).default(3),
      })
      .default({ window: 30 * 24 * 3600_000, reopenings: 3 }),
    /** An array that cannot be polled for this long gets a reachability card. */
    unreachable_after: duration("2m").default(2 * 60_000),
    snooze_presets: z
      .array(duration("1h"))
      .min(1)
      .max(4)
      .default([3600_000, 4 * 3600_000, 24 * 3600_000]),
    routes: z.array(routeSchema).default([]),
    /** Where alerts go that no route matches; empty means they are recorded but not posted. */
    default_channels: z.array(channelId).default([]),
    quiet_hours: quietHoursSchema.optional(),
    maintenance: z.array(maintenanceSchema).default([]),
    /** Closed alerts and idle cards are forgotten after this long (keep it longer than flap.window). */
    retention: duration("90d").default(90 * 24 * 3600_000),
    /**
     * Notify when an array is forecast to reach `level` (90 % unless set) in fewer than `days` days, from a
     * fit of its own space history over `window` (see docs/forecast.md). Posted like an array alert, once
     * per crossing; it closes when the forecast moves out again.
     */
    capacity_forecast: z
      .strictObject({
        days: z.int().min(1).max(365),
        level: z.union([z.literal(80), z.literal(90), z.literal(100)]).default(90),
        window: duration("30d").default(30 * 24 * 3600_000),
        check_every: duration("1h").default(3600_000),
        severity: severity.default("warning"),
      })
      .optional(),
    /**
     * Warn when a certificate on an array ends within `days` days (30 unless set): one alert per certificate,
     * posted once, closed when it is renewed or removed. Checked at most every `check_every`.
     */
    certificate_expiry: z
      .strictObject({
        days: z.int().min(1).max(365).default(30),
        check_every: duration("1h").default(3600_000),
        severity: severity.default("warning"),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const names = new Set<string>();
    c.routes.forEach((r, i) => {
      if (names.has(r.name))
        ctx.addIssue({ code: "custom", path: ["routes", i, "name"], message: "duplicate route name" });
      names.add(r.name);
    });
    if (c.retention < c.flap.window) {
      ctx.addIssue({ code: "custom", path: ["retention"], message: "must be at least flap.window" });
    }
  });

export type AlertsConfig = z.output<typeof alertsConfigSchema>;
export type AlertsConfigInput = z.input<typeof alertsConfigSchema>;

/** Defaults for every key, for code that runs without a config file. */
export function defaultAlertsConfig(over: AlertsConfigInput = {}): AlertsConfig {
  return alertsConfigSchema.parse(over);
}

export const storeConfigSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("memory") }),
  z.strictObject({
    kind: z.literal("sqlite"),
    /**
     * Relative paths are taken from the configuration file's directory. When unset: ARRAY_CHATOPS_DATA_DIR
     * (the container image sets /app/data, its volume), else `data` beside the configuration file.
     */
    data_dir: z.string().min(1).optional(),
    synchronous: z.enum(["full", "normal"]).default("full"),
  }),
  // Shared by several replicas (src/config/store.ts).
  redisStoreSchema,
]);
export type StoreConfig = z.output<typeof storeConfigSchema>;

/** Array selectors in routes and maintenance windows that match no configured array (checked at the root). */
export function unknownAlertSelectors(
  c: AlertsConfig,
  arrays: readonly { name: string; tags: readonly string[] }[],
): { path: (string | number)[]; message: string }[] {
  const names = new Set(arrays.map((a) => a.name));
  const tags = new Set(arrays.flatMap((a) => a.tags));
  const out: { path: (string | number)[]; message: string }[] = [];
  const check = (sel: string, path: (string | number)[]) => {
    if (sel === "all") return;
    if (sel.startsWith("tag:")) {
      if (!tags.has(sel.slice(4))) out.push({ path, message: `no array has tag "${sel.slice(4)}"` });
    } else if (!names.has(sel)) out.push({ path, message: `no array is named "${sel}"` });
  };
  c.routes.forEach((r, i) => {
    for (const [j, s] of (r.arrays ?? []).entries()) check(s, ["alerts", "routes", i, "arrays", j]);
  });
  c.maintenance.forEach((m, i) => {
    for (const [j, s] of m.arrays.entries()) check(s, ["alerts", "maintenance", i, "arrays", j]);
  });
  return out;
}
