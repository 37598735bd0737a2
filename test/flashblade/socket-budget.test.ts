/**
 * The socket budget's bookkeeping, with holders that are plain objects: places are granted up to the bound, a
 * connect that finds it full takes the sockets of the array idle longest, and arrays with no socket yet are
 * served before arrays asking for one more. A connect that gives up waiting (its connect time-out) leaves the
 * queue, so a fleet stalled behind the bound fails those calls as never sent instead of holding them without end.
 */
import { describe, expect, it } from "vitest";
import { SocketBudget, type SocketHolder, SocketWaitEnded } from "../../src/flashblade/socket-budget.js";

class Holder implements SocketHolder {
  idleSockets = 0;
  shedCalls = 0;
  constructor(readonly lastUsed: number) {}
  shed(): number {
    this.shedCalls++;
    return this.idleSockets;
  }
}

function holder(budget: SocketBudget, lastUsed: number): Holder {
  const h = new Holder(lastUsed);
  budget.register(h);
  return h;
}

describe("socket budget", () => {
  it("grants up to the bound, then takes the idle sockets of the array idle longest", async () => {
    const budget = new SocketBudget(2);
    const old = holder(budget, 1);
    const recent = holder(budget, 5);
    const a = await budget.acquire();
    old.idleSockets = 1;
    const b = await budget.acquire();
    recent.idleSockets = 1;
    expect(budget.stats()).toMatchObject({ open: 2, peak: 2, waiting: 0 });
    let granted = false;
    const c = budget.acquire().then((r) => {
      granted = true;
      return r;
    });
    // The longest idle was asked to close its socket; the other was left alone.
    expect([old.shedCalls, recent.shedCalls]).toEqual([1, 0]);
    expect(budget.stats().waiting).toBe(1);
    // Its socket closes: the place goes to the waiting connect.
    budget.shedClosed();
    a();
    expect((await c) && granted).toBe(true);
    expect(budget.stats()).toMatchObject({ open: 2, peak: 2, waiting: 0 });
    a();
    expect(budget.stats().open).toBe(2);
    b();
  });

  it("serves an array with no socket before one asking for another", async () => {
    const budget = new SocketBudget(1);
    const first = await budget.acquire();
    const order: string[] = [];
    const extra = budget.acquire(true).then((r) => {
      order.push("extra");
      return r;
    });
    const fresh = budget.acquire(false).then((r) => {
      order.push("first");
      return r;
    });
    first();
    (await fresh)();
    (await extra)();
    expect(order).toEqual(["first", "extra"]);
    expect(budget.stats()).toMatchObject({ open: 0, peak: 1, waiting: 0 });
  });

  it("serves a connect somebody waits on to carry out a change before every other", async () => {
    const budget = new SocketBudget(1);
    const held = await budget.acquire();
    const order: string[] = [];
    const waitFor = (extra: boolean | "urgent", name: string) =>
      budget.acquire(extra).then((release) => {
        order.push(name);
        release();
      });
    const all = [waitFor(true, "extra"), waitFor(false, "first"), waitFor("urgent", "urgent")];
    expect(budget.stats().waiting).toBe(3);
    held();
    await Promise.all(all);
    expect(order).toEqual(["urgent", "first", "extra"]);
  });

  it("a connect that gives up waiting leaves the queue and fails; the next place goes to one still waiting", async () => {
    const budget = new SocketBudget(1);
    const held = await budget.acquire();
    const giveUp = new AbortController();
    const abandoned = budget.acquire(false, giveUp.signal);
    const patient = budget.acquire(false);
    expect(budget.stats().waiting).toBe(2);
    giveUp.abort();
    await expect(abandoned).rejects.toBeInstanceOf(SocketWaitEnded);
    await expect(abandoned).rejects.toMatchObject({ code: "ECHATOPS_SOCKETS_BUSY", max: 1 });
    expect(budget.stats().waiting).toBe(1);
    held();
    (await patient)();
    expect(budget.stats()).toMatchObject({ open: 0, waiting: 0 });
  });

  it("a time to give up (ms) ends the wait the same way; a connect served in time is not failed by it", async () => {
    const budget = new SocketBudget(1);
    const held = await budget.acquire();
    const served = budget.acquire(false, 60_000);
    const late = budget.acquire(false, 1);
    await expect(late).rejects.toMatchObject({ code: "ECHATOPS_SOCKETS_BUSY", max: 1 });
    expect(budget.stats().waiting).toBe(1);
    held();
    (await served)();
    expect(budget.stats()).toMatchObject({ open: 0, waiting: 0 });
  });

  it("a request ending while a connect waits gives its array's idle socket, without asking every other array", async () => {
    const budget = new SocketBudget(1);
    const older = holder(budget, 1);
    const busy = holder(budget, 5);
    const place = await budget.acquire();
    const waiting = budget.acquire();
    // Nobody was idle when the connect began to wait.
    expect([older.shedCalls, busy.shedCalls]).toEqual([0, 0]);
    // The busy array's request ends: its socket goes to the connect waiting; no scan of the fleet.
    older.idleSockets = 1;
    busy.idleSockets = 1;
    budget.idle(busy);
    expect([older.shedCalls, busy.shedCalls]).toEqual([0, 1]);
    budget.shedClosed();
    place();
    (await waiting)();
    expect(budget.stats()).toMatchObject({ open: 0, waiting: 0 });
  });

  it("is contended only while connects wait for a place, not merely at its size", async () => {
    const budget = new SocketBudget(1);
    const first = await budget.acquire();
    expect(budget.contended).toBe(false);
    const waiting = budget.acquire(true);
    expect(budget.contended).toBe(true);
    first();
    (await waiting)();
    expect(budget.contended).toBe(false);
  });
});
