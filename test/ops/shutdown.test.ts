import { describe, expect, it } from "vitest";
import { InFlight } from "../../src/ops/in-flight.js";
import { onShutdownSignals, runShutdown, type SignalTarget } from "../../src/ops/shutdown.js";
import { shutdownBudget } from "../../src/slack/run.js";
import { memoryLogger } from "../fakes/memory-logger.js";

function fakeProcess() {
  const handlers = new Map<string, (() => void)[]>();
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => {
    resolveExit = r;
  });
  const target: SignalTarget = {
    once(signal, fn) {
      handlers.set(signal, [...(handlers.get(signal) ?? []), fn]);
    },
    exit(code) {
      resolveExit(code);
    },
  };
  const emit = (signal: string) => {
    const list = handlers.get(signal) ?? [];
    handlers.set(signal, []);
    for (const fn of list) fn();
  };
  return { target, emit, exited };
}

describe("shutdown", () => {
  it("InFlight stops accepting and waits for running work", async () => {
    const f = new InFlight();
    let release!: () => void;
    const work = f.track(() => new Promise<string>((r) => (release = () => r("done"))));
    expect(f.size).toBe(1);
    f.stopAccepting();
    expect(f.accepting).toBe(false);
    const drained = f.drain(60_000);
    release();
    expect(await drained).toBe(0);
    expect(await work).toBe("done");
  });

  it("InFlight.drain gives up after its timeout and says how much is left", async () => {
    const f = new InFlight();
    f.track(() => new Promise(() => {}));
    expect(await f.drain(5)).toBe(1);
  });

  it("runs the steps in order on SIGTERM, keeps going past a failing step, and exits non-zero", async () => {
    const p = fakeProcess();
    const log = memoryLogger();
    const order: string[] = [];
    onShutdownSignals(
      p.target,
      [
        { name: "stop taking commands", run: async () => void order.push("stop") },
        {
          name: "finish in-flight work",
          run: async () => {
            order.push("drain");
            throw new Error("drain failed");
          },
        },
        { name: "log out of arrays", run: async () => void order.push("logout") },
      ],
      log.logger,
    );
    p.emit("SIGTERM");
    expect(await p.exited).toBe(1);
    expect(order).toEqual(["stop", "drain", "logout"]);
    expect(log.lines.find((l) => l["msg"] === "shutdown step failed")).toMatchObject({
      step: "finish in-flight work",
    });
  });

  it("exits 0 after clean steps", async () => {
    const p = fakeProcess();
    const ran: string[] = [];
    onShutdownSignals(
      p.target,
      [
        { name: "first", run: async () => void ran.push("first") },
        { name: "second", run: async () => void ran.push("second") },
      ],
      memoryLogger().logger,
    );
    p.emit("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(ran).toEqual(["first", "second"]);
    expect(await runShutdown([{ name: "ok", run: async () => {} }], memoryLogger().logger)).toBe(true);
  });

  it("a second signal while a step hangs exits 1 at once", async () => {
    const p = fakeProcess();
    onShutdownSignals(p.target, [{ name: "slow", run: () => new Promise(() => {}) }], memoryLogger().logger);
    p.emit("SIGINT");
    p.emit("SIGINT");
    expect(await p.exited).toBe(1);
  });

  it("with a deadline, a hung step cannot hold the exit: what was cut off is recorded, then exit 1", async () => {
    const p = fakeProcess();
    const log = memoryLogger();
    const recorded: string[] = [];
    onShutdownSignals(
      p.target,
      [
        { name: "quick", run: async () => {} },
        { name: "hangs", run: () => new Promise(() => {}) },
      ],
      log.logger,
      { ms: 20, onDeadline: (step) => void recorded.push(step) },
    );
    p.emit("SIGTERM");
    expect(await p.exited).toBe(1);
    expect(recorded).toEqual(["hangs"]);
    expect(log.lines.find((l) => l["msg"] === "shutdown grace ran out: exiting now")).toMatchObject({
      level: "error",
      step: "hangs",
    });
  });

  it("with a deadline, recording what was cut off is itself bounded", async () => {
    const p = fakeProcess();
    onShutdownSignals(
      p.target,
      [{ name: "hangs", run: () => new Promise(() => {}) }],
      memoryLogger().logger,
      {
        ms: 5,
        boundMs: 5,
        onDeadline: () => new Promise(() => {}),
      },
    );
    p.emit("SIGTERM");
    expect(await p.exited).toBe(1);
  });

  it("shutdown_grace is shared out so the exit comes inside it, after the drain's share", () => {
    const b = shutdownBudget(20_000);
    expect(b.deadlineMs).toBeLessThan(20_000);
    expect(b.drainMs).toBeLessThan(b.deadlineMs);
    expect(b.drainMs).toBeGreaterThanOrEqual(10_000);
    // The forced exit, what it records and the last log lines all fit in the grace.
    expect(b.deadlineMs + b.recordMs + b.flushMs).toBeLessThan(20_000);
    const tiny = shutdownBudget(1_000);
    expect(tiny.deadlineMs).toBeGreaterThan(0);
    expect(tiny.deadlineMs + tiny.recordMs + tiny.flushMs).toBeLessThan(1_000);
  });
});
