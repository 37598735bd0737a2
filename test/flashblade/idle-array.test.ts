/**
 * What an array holds between its uses: an array idle past the session sweep holds no session and no limiter
 * (the undici pool goes with its last socket, transport.ts); its next calls build them again and log in once.
 * A call still waiting for its slot keeps the limiter, and a client closed while idle still refuses calls.
 * Real HTTPS to the simulator on loopback; the clock is injected.
 */
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ArrayConnection, type ConnectionDeps } from "../../src/flashblade/connection.js";
import { SocketBudget } from "../../src/flashblade/socket-budget.js";
import { logSink, simConfig, startSim } from "./sim.js";

const IDLE_MS = 60_000;
const LIST = ["GET", "/file-systems", { query: { limit: 1 } }] as const;

function connectionTo(
  cfg: ReturnType<typeof simConfig>,
  clock: { now: number },
  budget = new SocketBudget(8),
): ArrayConnection {
  const deps: ConnectionDeps = {
    logger: logSink.logger,
    now: () => clock.now,
    random: () => 0.5,
    sleep: (ms) => delay(ms),
    transport: { budget, now: () => clock.now },
  };
  return new ArrayConnection(cfg, deps);
}

describe("an idle array", () => {
  it("holds no session and no limiter after the sweep; its next calls work and log in once", async () => {
    const sim = await startSim();
    const clock = { now: 1_000_000 };
    const conn = connectionTo(simConfig(sim), clock);
    expect(conn.holds()).toMatchObject({ limiter: false, session: false, tls: false });
    await conn.call(...LIST);
    // The session ticket is kept for reconnects in memory of its own, not in a shared Buffer slab it would pin.
    expect(conn.holds()).toMatchObject({ limiter: true, session: true, tls: true, ticket: "own" });
    clock.now += IDLE_MS - 1;
    expect(await conn.endIfIdle(IDLE_MS)).toBe(false);
    expect(conn.holds()).toMatchObject({ limiter: true, session: true });
    clock.now += 1;
    expect(await conn.endIfIdle(IDLE_MS)).toBe(true);
    expect(conn.holds()).toMatchObject({ limiter: false, session: false });
    expect(sim.control.stats().logouts).toBe(1);
    const answers = await Promise.all([0, 1, 2, 3].map(() => conn.call(...LIST)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(sim.control.stats().logins).toBe(2);
    expect(conn.holds()).toMatchObject({ limiter: true, session: true });
    expect(conn.health()).toMatchObject({ inFlight: 0, queued: 0 });
    await conn.close();
  });

  it("keeps the limiter while a call waits for its slot, and refuses calls once closed", async () => {
    const sim = await startSim();
    const clock = { now: 1_000_000 };
    const conn = connectionTo(
      simConfig(sim, { rate: { maxConcurrent: 1, minSpacingMs: 0, maxQueue: 8 } }),
      clock,
    );
    await conn.call(...LIST);
    clock.now += IDLE_MS;
    // The first call takes the slot and waits for the login the sweep made necessary; the second queues.
    await conn.endIfIdle(IDLE_MS);
    const first = conn.call(...LIST);
    const second = conn.call(...LIST);
    expect(conn.health()).toMatchObject({ inFlight: 1 });
    expect(await conn.endIfIdle(IDLE_MS)).toBe(false);
    expect(conn.holds().limiter).toBe(true);
    expect((await Promise.all([first, second])).map((a) => a.status)).toEqual([200, 200]);
    expect(sim.control.stats().logins).toBe(2);
    clock.now += IDLE_MS;
    expect(await conn.endIfIdle(IDLE_MS)).toBe(true);
    expect(conn.holds().limiter).toBe(false);
    await conn.close();
    await expect(conn.call(...LIST)).rejects.toMatchObject({ code: "ARRAY_CLIENT_CLOSED" });
  });

  it("holds no TLS context or undici pool once its last socket has closed; the next call resumes its session", async () => {
    const sim = await startSim();
    const clock = { now: 1_000_000 };
    // One place for two arrays: each one's call closes the other's idle socket.
    const budget = new SocketBudget(1);
    const [a, b] = ["fb-a", "fb-b"].map((name) => connectionTo(simConfig(sim, { name }), clock, budget));
    await a?.call(...LIST);
    expect(a?.holds()).toMatchObject({ pool: true, tls: true });
    await b?.call(...LIST);
    // a's socket closed (its place given back) before b's opened, and its pool and context went with it.
    expect(a?.holds()).toMatchObject({ pool: false, tls: false });
    const before = budget.stats().handshakes;
    expect((await a?.call(...LIST))?.status).toBe(200);
    expect(budget.stats().handshakes).toEqual({ full: before.full, resumed: before.resumed + 1 });
    expect(a?.holds()).toMatchObject({ pool: true, tls: true });
    await Promise.all([a?.close(), b?.close()]);
  });
});
