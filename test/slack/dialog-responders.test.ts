/**
 * The responders kept for typed-name dialogs: one per request and person, for Slack's 30 minutes of
 * response_url, at most `max` of them (the oldest kept goes first).
 */
import { describe, expect, it } from "vitest";
import { DialogResponders } from "../../src/slack/dialog-responders.js";
import type { Responder } from "../../src/slack/effects.js";

const responder = (): Responder => async () => {};

describe("DialogResponders", () => {
  it("hands back the click's responder to the same person for the same request, while Slack still takes it", () => {
    let now = 1_000_000;
    const kept = new DialogResponders(() => now);
    const r = responder();
    kept.keep("P1", "U2", r);
    expect(kept.of("P1", "U3")).toBeUndefined();
    expect(kept.of("P2", "U2")).toBeUndefined();
    expect(kept.of("P1", "U2")).toBe(r);
    // A refused submission and the next one both use it.
    expect(kept.of("P1", "U2")).toBe(r);
    now += 30 * 60_000;
    expect(kept.of("P1", "U2")).toBeUndefined();
  });

  it("keeps at most `max`, dropping the oldest", () => {
    const kept = new DialogResponders(() => 0, 2);
    const [a, b, c] = [responder(), responder(), responder()];
    kept.keep("P1", "U1", a);
    kept.keep("P2", "U1", b);
    kept.keep("P3", "U1", c);
    expect(kept.of("P1", "U1")).toBeUndefined();
    expect(kept.of("P2", "U1")).toBe(b);
    expect(kept.of("P3", "U1")).toBe(c);
  });
});
