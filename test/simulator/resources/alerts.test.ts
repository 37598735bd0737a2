import { describe, expect, it } from "vitest";
import { closeAlert, raiseAlert, updateAlert } from "../../../src/simulator/state-control.js";
import { SimHttpError } from "../../../src/simulator/types.js";
import { call, expect400, HOUR, items, list, q, sim } from "./helpers.js";

describe("/alerts", () => {
  it("lists alerts named by their index, with id from 1.8, open ones of each severity and a closed one", () => {
    const { state } = sim();
    const open = list(state, "/alerts", q({ filter: "state='open'" })).items;
    expect(new Set(open.map((a) => a["severity"]))).toEqual(new Set(["info", "warning", "critical"]));
    expect(list(state, "/alerts", q({ filter: "state='closed'" })).items).toHaveLength(1);
    const [first] = list(state, "/alerts", "names=1").items;
    expect(first).toMatchObject({
      name: "1",
      index: 1,
      code: 1004,
      flagged: true,
      knowledge_base_url: expect.stringContaining("Alert_1004"),
    });
    expect(first?.["id"]).toEqual(expect.any(String));
    expect(list(state, "/alerts", "names=1", "1.7").items[0]).not.toHaveProperty("id");
  });

  it("accepts only 'flagged' in PATCH ?names=<index>", () => {
    const { state } = sim();
    const [a] = items(call(state, "PATCH", "/alerts", { query: "names=2", body: { flagged: true } }));
    expect(a).toMatchObject({ name: "2", flagged: true });
    expect400(
      state,
      "PATCH",
      "/alerts",
      { query: "names=2", body: { state: "closed" } },
      /Only 'flagged' can be changed on an alert; remove 'state'/,
    );
    expect400(
      state,
      "PATCH",
      "/alerts",
      { query: "names=2", body: { flagged: "yes" } },
      /'flagged'.*expected boolean/,
    );
    expect400(
      state,
      "PATCH",
      "/alerts",
      { query: "names=999", body: { flagged: true } },
      /Alert '999' does not exist/,
    );
    expect400(state, "PATCH", "/alerts", { body: { flagged: true } }, /'names' is required/);
  });

  it("raises, escalates and closes alerts through the control, moving 'updated'", () => {
    const { state, clock } = sim("empty");
    const a = raiseAlert(state, {
      code: 1100,
      severity: "warning",
      component: "fb-test",
      subject: "Storage consumption has reached 92% of usable capacity",
    });
    expect(a.index).toBe(1);
    clock.advance(HOUR);
    updateAlert(state, 1, { severity: "critical" });
    const [escalated] = list(state, "/alerts", "names=1").items;
    expect(escalated).toMatchObject({
      severity: "critical",
      created: clock.now - HOUR,
      updated: clock.now,
      notified: clock.now,
      state: "open",
    });
    clock.advance(HOUR);
    closeAlert(state, 1);
    expect(list(state, "/alerts", "names=1").items[0]).toMatchObject({
      state: "closed",
      updated: clock.now,
      notified: clock.now - HOUR,
    });
    expect(() => closeAlert(state, 42)).toThrow(SimHttpError);
    expect(raiseAlert(state, { code: 1, severity: "info", component: "x", subject: "y" }).index).toBe(2);
  });
});

describe("/alert-watchers", () => {
  it("creates watchers named by e-mail with a minimum severity from 1.8.1", () => {
    const { state } = sim();
    const [w] = items(
      call(state, "POST", "/alert-watchers", {
        query: "names=storage-oncall@example.com",
        body: { minimum_notification_severity: "critical" },
      }),
    );
    expect(w).toMatchObject({
      name: "storage-oncall@example.com",
      enabled: true,
      minimum_notification_severity: "critical",
    });
    expect400(
      state,
      "POST",
      "/alert-watchers",
      { query: "names=not-an-address" },
      /'not-an-address' is not an e-mail address/,
    );
    expect400(state, "POST", "/alert-watchers", { query: "names=oncall@example.com" }, /already exists/);
    expect400(
      state,
      "POST",
      "/alert-watchers",
      { version: "1.8", query: "names=x@example.com", body: { minimum_notification_severity: "info" } },
      /not a field of AlertWatcherPost in REST 1.8/,
    );
    expect400(
      state,
      "PATCH",
      "/alert-watchers",
      { query: "names=oncall@example.com", body: { minimum_notification_severity: "major" } },
      /"info", "warning", "critical"/,
    );
    call(state, "PATCH", "/alert-watchers", { query: "names=noc@example.com", body: { enabled: true } });
    expect(list(state, "/alert-watchers/test").items.every((t) => t["accepted"] === true)).toBe(true);
    expect(list(state, "/alert-watchers", "", "1.8").items[0]).toEqual({
      name: "storage-team@example.com",
      enabled: true,
    });
    call(state, "DELETE", "/alert-watchers", { query: "names=noc@example.com" });
    expect(list(state, "/alert-watchers").items).toHaveLength(3);
  });
});
