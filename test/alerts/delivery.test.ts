import { describe, expect, it } from "vitest";
import { createDeliveryPolicy } from "../../src/alerts/delivery.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";

const at = (iso: string) => Date.parse(iso);

describe("quiet hours", () => {
  // 22:00–07:00 Berlin time (UTC+1 in January).
  const policy = createDeliveryPolicy(
    defaultAlertsConfig({ quiet_hours: { start: "22:00", end: "07:00" } }),
    "Europe/Berlin",
  );

  it("holds non-critical posts until quiet hours end, across midnight, in the configured zone", () => {
    const d = policy.decide("CSTORAGE1", "fb1", [], "warning", at("2025-01-14T23:30:00Z"));
    expect(d).toEqual({ channel: "CSTORAGE1", holdUntil: at("2025-01-15T06:00:00Z"), reason: "quiet hours" });
  });

  it("lets critical alerts through and posts outside the window at once", () => {
    expect(policy.decide("C1", "fb1", [], "critical", at("2025-01-14T23:30:00Z"))).toEqual({ channel: "C1" });
    expect(policy.decide("C1", "fb1", [], "warning", at("2025-01-14T12:00:00Z"))).toEqual({ channel: "C1" });
    // 07:00 local is already outside.
    expect(policy.decide("C1", "fb1", [], "info", at("2025-01-15T06:00:00Z"))).toEqual({ channel: "C1" });
  });

  it("ends at 07:00 on the zone's clock on both DST nights, not an hour early or late", () => {
    // 30 March 2025, spring forward in Berlin (02:00 → 03:00): 23:00 CET is 22:00Z, 07:00 CEST is 05:00Z.
    expect(policy.decide("C1", "fb1", [], "warning", at("2025-03-29T22:00:00Z")).holdUntil).toBe(
      at("2025-03-30T05:00:00Z"),
    );
    // 26 October 2025, fall back (03:00 → 02:00): 23:00 CEST is 21:00Z, 07:00 CET is 06:00Z.
    expect(policy.decide("C1", "fb1", [], "warning", at("2025-10-25T21:00:00Z")).holdUntil).toBe(
      at("2025-10-26T06:00:00Z"),
    );
    // After the change, within the same night, too.
    expect(policy.decide("C1", "fb1", [], "warning", at("2025-03-30T01:30:00Z")).holdUntil).toBe(
      at("2025-03-30T05:00:00Z"),
    );
  });

  it("posts to the low-noise channel instead of waiting when one is set", () => {
    const p = createDeliveryPolicy(
      defaultAlertsConfig({ quiet_hours: { start: "22:00", end: "07:00", channel: "CQUIET001" } }),
      "UTC",
    );
    expect(p.decide("C1", "fb1", [], "warning", at("2025-01-14T03:00:00Z"))).toEqual({
      channel: "CQUIET001",
      reason: "quiet hours",
    });
  });
});

describe("maintenance windows", () => {
  const policy = createDeliveryPolicy(
    defaultAlertsConfig({
      quiet_hours: { start: "22:00", end: "07:00" },
      maintenance: [
        { arrays: ["tag:dr"], start: "2025-03-01T20:00:00Z", end: "2025-03-01T23:00:00Z" },
        { arrays: ["fb2"], start: "2025-03-01T10:00:00Z", end: "2025-03-01T12:00:00Z", channel: "CMAINT001" },
      ],
    }),
    "UTC",
  );

  it("holds every severity for the array until the window ends, then quiet hours still apply", () => {
    const d = policy.decide("C1", "fb-dr", ["dr"], "critical", at("2025-03-01T21:00:00Z"));
    expect(d).toEqual({ channel: "C1", holdUntil: at("2025-03-01T23:00:00Z"), reason: "maintenance" });
    const w = policy.decide("C1", "fb-dr", ["dr"], "warning", at("2025-03-01T21:00:00Z"));
    expect(w).toEqual({ channel: "C1", holdUntil: at("2025-03-02T07:00:00Z"), reason: "maintenance" });
  });

  it("redirects to the window's channel, and leaves other arrays alone", () => {
    expect(policy.decide("C1", "fb2", [], "critical", at("2025-03-01T11:00:00Z"))).toEqual({
      channel: "CMAINT001",
      reason: "maintenance",
    });
    expect(policy.decide("C1", "fb3", [], "critical", at("2025-03-01T11:00:00Z"))).toEqual({ channel: "C1" });
    expect(policy.maintenance("fb2", [], at("2025-03-01T12:00:00Z"))).toBeUndefined();
  });
});
