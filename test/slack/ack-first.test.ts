/** Acks first (src/slack/ack-first.ts): queued command work waits for a quiet receiver, never past its bound. */
import { describe, expect, it } from "vitest";
import { type AckFirstTimers, ackFirst } from "../../src/slack/ack-first.js";

/** Timers that fire only when the test says time has passed. */
function manualTimers() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: AckFirstTimers = {
    set: (fn, ms) => {
      pending.set(++next, { at: now + ms, fn });
      return next;
    },
    clear: (h) => {
      pending.delete(h as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at > now || !pending.has(id)) continue;
      pending.delete(id);
      t.fn();
    }
  };
  return { timers, advance, pending: () => pending.size };
}

describe("acks first", () => {
  it("holds a command's work while another request waits for its ack, then runs it once the receiver is quiet", () => {
    const t = manualTimers();
    const gate = ackFirst(2, 20, t.timers);
    const ran: string[] = [];
    const first = gate.arrived();
    const second = gate.arrived();
    first();
    gate.later(() => ran.push("first"));
    t.advance(5);
    expect(ran).toEqual([]);
    second();
    second();
    gate.later(() => ran.push("second"));
    t.advance(1);
    expect(ran).toEqual([]);
    t.advance(1);
    expect(ran).toEqual(["first", "second"]);
    expect(t.pending()).toBe(0);
  });

  it("starts the quiet period again when another request arrives", () => {
    const t = manualTimers();
    const gate = ackFirst(2, 20, t.timers);
    const ran: string[] = [];
    gate.arrived()();
    gate.later(() => ran.push("a"));
    t.advance(1);
    const late = gate.arrived();
    t.advance(5);
    expect(ran).toEqual([]);
    late();
    t.advance(2);
    expect(ran).toEqual(["a"]);
  });

  it("never holds work longer than its bound, however busy the receiver stays", () => {
    const t = manualTimers();
    const gate = ackFirst(2, 20, t.timers);
    const ran: string[] = [];
    gate.arrived();
    gate.later(() => ran.push("held"));
    t.advance(19);
    expect(ran).toEqual([]);
    t.advance(1);
    expect(ran).toEqual(["held"]);
    gate.later(() => ran.push("next"));
    t.advance(19);
    expect(ran).toEqual(["held"]);
    t.advance(1);
    expect(ran).toEqual(["held", "next"]);
  });
});
