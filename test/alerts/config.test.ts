import { describe, expect, it } from "vitest";
import { alertsConfigSchema, defaultAlertsConfig, storeConfigSchema } from "../../src/config/alerts.js";
import { formatConfigIssues } from "../../src/config/load.js";
import { configSchema } from "../../src/config/schema.js";

const problems = (raw: unknown) => {
  const r = alertsConfigSchema.safeParse(raw);
  return r.success ? [] : formatConfigIssues(r.error, alertsConfigSchema);
};

describe("alerts config", () => {
  it("has the documented defaults", () => {
    expect(defaultAlertsConfig()).toMatchObject({
      poll_interval: 30_000,
      reconcile_every: 600_000,
      storm_threshold: 10,
      unreachable_after: 120_000,
      flap: { window: 30 * 86_400_000, reopenings: 3 },
      snooze_presets: [3_600_000, 14_400_000, 86_400_000],
      routes: [],
      default_channels: [],
    });
  });

  it("reads durations and 24-hour times", () => {
    const c = defaultAlertsConfig({ poll_interval: "1m", quiet_hours: { start: "22:30", end: "06:00" } });
    expect(c.poll_interval).toBe(60_000);
    expect(c.quiet_hours).toMatchObject({ start: 22 * 60 + 30, end: 360, bypass_severity: "critical" });
  });

  it("lists every problem with its path", () => {
    const out = problems({
      poll_interval: "soon",
      routes: [
        { name: "a", channels: ["#storage"] },
        { name: "a", severity: ["critical"], min_severity: "warning", channels: ["C1234"] },
      ],
      quiet_hours: { start: "25:00", end: "07:00" },
      maintenance: [{ arrays: ["fb1"], start: "2025-03-01T23:00:00Z", end: "2025-03-01T20:00:00Z" }],
      flap: { window: "90d" },
      retention: "30d",
      surprise: true,
    });
    const text = out.join("\n");
    expect(text).toContain('poll_interval: "soon" is not a duration');
    expect(text).toContain("routes[0].channels[0]: use the channel ID");
    expect(text).toContain("routes[1]: give either severity (a list) or min_severity, not both");
    expect(text).toContain("quiet_hours.start: write a 24-hour time");
    expect(text).toContain("maintenance[0]: end must be after start");
    expect(text).toContain("surprise: unknown key.");
  });

  it("checks array selectors against the configured arrays at the root", () => {
    const r = configSchema.safeParse({
      arrays: [{ name: "fb1", address: "https://fb1.example.net", api_token_env: "T", tags: ["prod"] }],
      alerts: {
        routes: [{ name: "x", arrays: ["fb2", "tag:prod", "tag:dr"], channels: ["C1234"] }],
        maintenance: [{ arrays: ["fb1"], start: "2025-03-01T20:00:00Z", end: "2025-03-01T23:00:00Z" }],
      },
    });
    expect(r.success).toBe(false);
    const text = r.success ? "" : formatConfigIssues(r.error).join("\n");
    expect(text).toContain('alerts.routes[0].arrays[0]: no array is named "fb2"');
    expect(text).toContain('alerts.routes[0].arrays[2]: no array has tag "dr"');
    expect(text).not.toContain("arrays[1]");
  });

  it("store: SQLite (its directory resolved at load time, src/config/data-dir.ts), or memory", () => {
    expect(storeConfigSchema.parse({ kind: "sqlite" })).toEqual({ kind: "sqlite", synchronous: "full" });
    expect(storeConfigSchema.parse({ kind: "memory" })).toEqual({ kind: "memory" });
    expect(storeConfigSchema.safeParse({ kind: "redis" }).success).toBe(false);
  });
});
