import { describe, expect, it } from "vitest";
import { parseAlert } from "../../src/alerts/alert-model.js";
import { diffAlert } from "../../src/alerts/diff.js";
import { ACTION, type RenderEnv, renderCard } from "../../src/alerts/render.js";
import { newCard } from "../../src/alerts/repo.js";
import type { AlertRecord, AlertSnapshot } from "../../src/alerts/types.js";
import type { Block, Message } from "../../src/core/presentation/message.js";

const T = Date.UTC(2025, 0, 14, 9, 30);
const env: RenderEnv = {
  now: T,
  timeZone: "UTC",
  flap: { window: 3_600_000, reopenings: 3 },
  snoozePresets: [3_600_000, 86_400_000],
  stormThreshold: 10,
};

function snap(over: Partial<AlertSnapshot> = {}): AlertSnapshot {
  return {
    name: "7",
    index: 7,
    code: 1000,
    severity: "warning",
    component: "CH1.FB5",
    state: "open",
    flagged: false,
    created: T - 3_600_000,
    updated: T - 3_600_000,
    subject: "Blade CH1.FB5 is unhealthy",
    description: "A blade is unhealthy.",
    ...over,
  };
}
const rec = (over: Partial<AlertSnapshot> = {}): AlertRecord => ({
  ...snap(over),
  array: "fb1",
  firstSeenAt: T,
  cardIds: [],
});
const card = (kind: "alert" | "summary" = "alert") =>
  newCard({ id: "a/C1/fb1/7", kind, array: "fb1", channel: "C1", members: ["fb1/7"], createdAt: T });

/** All markup and plain text of a message, as a transport would see it. */
function markup(m: Message): string {
  const part = (b: Block): string => {
    switch (b.type) {
      case "header":
      case "code":
        return b.text;
      case "section":
      case "context":
        return b.text.markup;
      case "fields":
        return b.fields.map((f) => f.value.markup).join(" ");
      case "table":
        return JSON.stringify(b.rows);
      case "actions":
        return b.buttons.map((x) => `${x.label}=${x.actionId}:${x.value}`).join(" ");
      default:
        return "";
    }
  };
  return [m.text, ...m.blocks.map(part)].join("\n");
}

describe("alert card", () => {
  it("shows severity, array, component, description, times and buttons", () => {
    const m = renderCard(card(), [rec()], env);
    expect(m.text).toBe("🟠 Warning alert on fb1: Blade CH1.FB5 is unhealthy (alert 7)");
    const text = markup(m);
    for (const part of [
      "*Warning* alert on *fb1*: A blade is unhealthy.",
      "CH1.FB5",
      "2025-01-14 08:30 UTC",
    ]) {
      expect(text).toContain(part);
    }
    const buttons = m.blocks.find((b) => b.type === "actions");
    expect(buttons?.type === "actions" && buttons.buttons.map((b) => b.label)).toEqual([
      "Flag",
      "Snooze 1 hour",
      "Snooze 1 day",
    ]);
  });

  it("escapes array text in markup so it can never mention or link (plain text is escaped by each transport)", () => {
    const evil = rec({
      component: "<!channel>",
      subject: "<@U123> & <#C1>",
      description: "<https://evil|click>",
    });
    const m = renderCard(card(), [evil], env);
    const text = m.blocks
      .map((b) =>
        b.type === "section" || b.type === "context"
          ? b.text.markup
          : b.type === "fields"
            ? b.fields.map((f) => f.value.markup).join(" ")
            : "",
      )
      .join("\n");
    expect(text).not.toMatch(/<[!@#]/);
    expect(text).toContain("&lt;!channel&gt;");
    expect(text).toContain("&lt;https://evil|click&gt;");
  });

  it("a resolved card says for how long it was open and offers no buttons", () => {
    const m = renderCard(card(), [rec({ state: "closed", updated: T - 600_000 })], env);
    expect(m.text).toBe("✅ Resolved on fb1: Blade CH1.FB5 is unhealthy (alert 7)");
    expect(markup(m)).toContain("open for 50m");
    expect(m.blocks.some((b) => b.type === "actions")).toBe(false);
  });

  it("capacity alerts offer the follow-up commands", () => {
    const m = renderCard(card(), [rec({ code: 1100, subject: "Storage consumption has reached 92%" })], env);
    expect(markup(m)).toContain(`Largest file systems=${ACTION.followUp}:fs-top:a/C1/fb1/7`);
  });

  it("a flapping card counts its reopenings in the window", () => {
    const c = card();
    c.reopenings = [T - 3000, T - 2000, T - 1000];
    expect(markup(renderCard(c, [rec({ name: "5", index: 5, state: "closed" }), rec()], env))).toContain(
      "Flapping: reopened 3× in the last hour (2 alerts on this message).",
    );
  });
});

describe("storm summary", () => {
  it("lists members worst first in a table and counts the open ones", () => {
    const members = Array.from({ length: 12 }, (_, i) =>
      rec({
        name: String(i + 1),
        index: i + 1,
        severity: i === 5 ? "critical" : "warning",
        component: `C${i}`,
      }),
    );
    const m = renderCard(card("summary"), members, env);
    expect(m.text).toBe("🔴 12 new alerts on fb1 (12 open)");
    const table = m.blocks.find((b) => b.type === "table");
    expect(table?.type === "table" && table.rows[0]?.["alert"]).toBe("6");
    expect(table?.type === "table" && table.totalRows).toBe(12);
    expect(markup(m)).toContain("Open: 1 critical, 11 warning.");
  });
});

describe("alert model and diff", () => {
  it("reads 1.x alerts, tolerating missing fields and unknown severities", () => {
    const p = parseAlert({ name: "12", severity: "fatal", created: 5 });
    expect(p).toEqual({
      ok: true,
      alert: expect.objectContaining({
        name: "12",
        index: 12,
        severity: "warning",
        state: "open",
        updated: 5,
      }),
    });
    expect(parseAlert({ index: 3 }).ok).toBe(false);
  });

  it("reports each change once and ignores older copies", () => {
    const a = snap();
    expect(diffAlert(undefined, a)).toEqual([{ kind: "opened" }]);
    expect(diffAlert(undefined, snap({ state: "closed" }))).toEqual([{ kind: "seen-closed" }]);
    expect(diffAlert(a, a)).toEqual([]);
    const b = snap({ severity: "critical", flagged: true, updated: a.updated + 1 });
    expect(diffAlert(a, b)).toEqual([
      { kind: "severity", from: "warning", to: "critical" },
      { kind: "flagged", flagged: true },
    ]);
    expect(diffAlert(b, a)).toEqual([]);
    expect(diffAlert(snap({ state: "closed" }), snap({ updated: a.updated + 5 }))).toEqual([
      { kind: "reopened" },
    ]);
    expect(diffAlert(a, snap({ description: "more", updated: a.updated + 1 }))).toEqual([
      { kind: "details" },
    ]);
  });
});
