/**
 * The capacity_forecast rule: the growth scenario fills its array in 75 days, so with "notify when 90 % is
 * less than 70 days away" the first check posts one alert card; later checks leave it alone, and when the
 * forecast moves out (the array gets bigger) the same card is closed. An array that is not filling up is silent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CAPACITY_FORECAST_NAME } from "../../src/alerts/capacity-rule.js";
import { type AlertHarness, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const forecastPosts = (x: AlertHarness) =>
  x.posts(STORAGE).filter((m) => m.text.includes("Capacity forecast"));

describe("capacity_forecast alert rule", () => {
  it("posts once per crossing through the alert pipeline and closes the same card when the forecast moves out", async () => {
    h = await startAlertHarness({
      scenario: "growth",
      config: { jitter: 0, capacity_forecast: { days: 70 } },
    });
    h.engine.start();
    await h.advance(30_000);
    expect(forecastPosts(h)).toHaveLength(1);
    expect(forecastPosts(h)[0]?.text).toContain("reaches 90 % in less than 70 days");
    // Hourly checks while the forecast stays inside: no new message.
    await h.advance(3 * HOUR);
    expect(forecastPosts(h)).toHaveLength(1);
    const open = (await h.engine.alerts("fb1")).find((a) => a.name === CAPACITY_FORECAST_NAME);
    expect(open?.state).toBe("open");
    // Four times the capacity: 90 % is now years away and the alert closes.
    h.sim.state.array.capacity *= 4;
    await h.advance(HOUR + 30_000);
    const closed = (await h.engine.alerts("fb1")).find((a) => a.name === CAPACITY_FORECAST_NAME);
    expect(closed?.state).toBe("closed");
    expect(forecastPosts(h)).toHaveLength(1);
  });

  it("stays silent for an array that is not filling up, and when the rule is not configured", async () => {
    h = await startAlertHarness({ config: { jitter: 0, capacity_forecast: { days: 70 } } });
    h.engine.start();
    await h.advance(2 * HOUR);
    expect(forecastPosts(h)).toHaveLength(0);
    await h.close();
    h = await startAlertHarness({ scenario: "growth", config: { jitter: 0 } });
    h.engine.start();
    await h.advance(2 * HOUR);
    expect(forecastPosts(h)).toHaveLength(0);
  });
});
