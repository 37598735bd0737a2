/**
 * The certificate_expiry rule: a certificate ending within the configured days gets one warning card, posted
 * once (later checks leave it alone), and the same card closes when the certificate is renewed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CERTIFICATE_EXPIRY_PREFIX } from "../../src/alerts/certificate-rule.js";
import { type AlertHarness, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const certPosts = (x: AlertHarness) => x.posts(STORAGE).filter((m) => m.text.includes("Certificate"));
const setEnd = (x: AlertHarness, name: string, validTo: number) => {
  const item = x.sim.state.generic.get("/certificates")?.items.get(name);
  if (!item) throw new Error(`no certificate ${name} in the simulator`);
  item["valid_to"] = String(validTo);
};

describe("certificate_expiry alert rule", () => {
  it("warns once per certificate before it expires and closes the card when it is renewed", async () => {
    h = await startAlertHarness({ config: { jitter: 0, certificate_expiry: { days: 30 } } });
    setEnd(h, "management", h.clock.now() + 12 * DAY);
    h.engine.start();
    await h.advance(30_000);
    expect(certPosts(h)).toHaveLength(1);
    const text = certPosts(h)[0]?.text ?? "";
    expect(text).toContain("Certificate management on fb1 expires within 30 days");
    // Hourly checks while it stays within reach: no new message.
    await h.advance(5 * HOUR);
    expect(certPosts(h)).toHaveLength(1);
    const open = (await h.engine.alerts("fb1")).find(
      (a) => a.name === `${CERTIFICATE_EXPIRY_PREFIX}management`,
    );
    expect(open?.state).toBe("open");
    expect(open?.description).toContain("within 30 days");
    // Renewed for a year: the same alert closes, nothing new is posted.
    setEnd(h, "management", h.clock.now() + 365 * DAY);
    await h.advance(HOUR + 30_000);
    const closed = (await h.engine.alerts("fb1")).find(
      (a) => a.name === `${CERTIFICATE_EXPIRY_PREFIX}management`,
    );
    expect(closed?.state).toBe("closed");
    expect(certPosts(h)).toHaveLength(1);
  });

  it("is silent for certificates further away than the configured days, and when the rule is off", async () => {
    h = await startAlertHarness({ config: { jitter: 0, certificate_expiry: { days: 30 } } });
    setEnd(h, "management", h.clock.now() + 45 * DAY);
    h.engine.start();
    await h.advance(2 * HOUR);
    expect(certPosts(h)).toHaveLength(0);
    await h.close();
    h = await startAlertHarness({ config: { jitter: 0 } });
    setEnd(h, "management", h.clock.now() + 2 * DAY);
    h.engine.start();
    await h.advance(2 * HOUR);
    expect(certPosts(h)).toHaveLength(0);
  });
});
