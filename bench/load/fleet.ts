/**
 * The load test's simulated arrays with their faults, in this process or in a child process. In a child (the
 * CLI's form), the arrays' memory and CPU are not the bot's: the RSS the load reports is then the process
 * holding the bot, the driver and the fake Slack only. The reconciliation reads each array's own audit log of
 * applied changes through `effects()` either way.
 */
import { type ChildProcess, fork } from "node:child_process";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { eradicateExpired } from "../../src/simulator/state-control.js";
import { simEffects } from "./reconcile.js";

export interface FleetArray {
  name: string;
  url: string;
  ca: string;
}

export interface Fleet {
  readonly arrays: readonly FleetArray[];
  /** The array that is down for the whole run (with faults), if any. */
  readonly down: string | undefined;
  /** Starts the rolling faults (expired sessions, 5xx bursts, resets), one array every half second. */
  startFaults(): Promise<void>;
  stopFaults(): Promise<void>;
  /** Every change the arrays applied, as `array|op|name` (reconcile.ts). */
  effects(): Promise<string[]>;
  /** The memory of the process the arrays run in. */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** The file systems the arrays hold now, all arrays together (the lists the load reads grow with them). */
  fileSystems(): Promise<FleetFileSystems>;
  close(): Promise<void>;
}

export interface FleetFileSystems {
  total: number;
  destroyed: number;
}

export interface FleetOptions {
  arrays: number;
  faults: boolean;
  /** Run the arrays in a child process (needs the compiled fleet-child.js beside this file). */
  child?: boolean;
  /**
   * The arrays eradicate what was destroyed this long ago, as a real array does when its eradication delay
   * (24 h) runs out: the load's arrays then hold a steady number of file systems. Unset: nothing is eradicated
   * but by the bot.
   */
  eradicateAfterMs?: number;
}

async function startSims(n: number): Promise<Simulator[]> {
  const sims: Simulator[] = [];
  // A few at a time: each start makes a key pair and opens a port.
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, (_, j) =>
      startSimulator({ arrayName: `a-${i + j}`, scenario: "demo", seed: i + j + 1 }),
    );
    sims.push(...(await Promise.all(batch)));
  }
  return sims;
}

/** The arrays in this process: static faults applied, rolling faults on demand. */
export async function startLocalFleet(o: Omit<FleetOptions, "child">): Promise<Fleet> {
  const sims = await startSims(o.arrays);
  let down: string | undefined;
  if (o.faults) {
    sims.forEach((sim, i) => {
      if (i % 5 === 0) sim.control.addLatency({ ms: 20 + (i % 7) * 20 });
      if (i % 7 === 1) sim.control.failRequests({ method: "GET", status: 503, share: 0.1 });
      if (i % 11 === 2) sim.control.resetConnections({ method: "GET", share: 0.05 });
    });
    const last = sims[sims.length - 1];
    await last?.control.down();
    down = last?.arrayName;
  }
  let timer: NodeJS.Timeout | undefined;
  let tick = 0;
  const eradicateAfterMs = o.eradicateAfterMs;
  const sweeper =
    eradicateAfterMs === undefined
      ? undefined
      : setInterval(() => {
          for (const sim of sims) eradicateExpired(sim.state, eradicateAfterMs);
        }, 1000);
  return {
    arrays: sims.map((s) => ({ name: s.arrayName, url: s.url, ca: s.ca })),
    down,
    async startFaults() {
      if (!o.faults || timer) return;
      timer = setInterval(() => {
        const sim = sims[tick++ % Math.max(1, sims.length - 1)];
        if (!sim) return;
        if (tick % 3 === 0) sim.control.invalidateSessions();
        else if (tick % 3 === 1) sim.control.failRequests({ status: 503, count: 4 });
        else sim.control.resetConnections({ count: 2 });
      }, 500);
    },
    async stopFaults() {
      clearInterval(timer);
      timer = undefined;
    },
    async effects() {
      return sims.flatMap(simEffects);
    },
    async memory() {
      return process.memoryUsage();
    },
    async fileSystems() {
      let total = 0;
      let destroyed = 0;
      for (const sim of sims) {
        for (const fs of sim.state.fileSystems.values()) {
          total++;
          if (fs.destroyed) destroyed++;
        }
      }
      return { total, destroyed };
    },
    async close() {
      clearInterval(timer);
      clearInterval(sweeper);
      for (const s of sims) await s.close();
    },
  };
}

type Request = {
  id: number;
  op: "startFaults" | "stopFaults" | "effects" | "memory" | "fileSystems" | "close";
};
type Reply = { id: number; value: unknown };

/** The child's side: serves one fleet over IPC until "close". */
export async function serveFleet(o: Omit<FleetOptions, "child">): Promise<void> {
  const fleet = await startLocalFleet(o);
  const send = (m: unknown) => process.send?.(m);
  process.on("message", (m: Request) => {
    void fleet[m.op]().then((value) => {
      // Disconnecting only once the answer is written (a disconnect right after send() can drop it).
      process.send?.({ id: m.id, value } satisfies Reply, undefined, {}, () => {
        if (m.op === "close") process.disconnect();
      });
    });
  });
  send({ ready: { arrays: fleet.arrays, down: fleet.down } });
}

/** The arrays in a child process (bench/load/fleet-child.js), driven over IPC. */
export async function startChildFleet(o: Omit<FleetOptions, "child">): Promise<Fleet> {
  const script = new URL("./fleet-child.js", import.meta.url);
  const child: ChildProcess = fork(
    script,
    [
      "--arrays",
      String(o.arrays),
      ...(o.faults ? ["--faults"] : []),
      ...(o.eradicateAfterMs === undefined ? [] : ["--eradicate-after-ms", String(o.eradicateAfterMs)]),
    ],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  const ready = await new Promise<{ arrays: FleetArray[]; down: string | undefined }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the fleet process exited (${code}) before it was ready`)));
    child.once("message", (m) =>
      resolve((m as { ready: { arrays: FleetArray[]; down: string | undefined } }).ready),
    );
  });
  child.removeAllListeners("exit");
  let seq = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  child.on("message", (m) => {
    const r = m as Reply;
    waiting.get(r.id)?.(r.value);
    waiting.delete(r.id);
  });
  const call = <T>(op: Request["op"]): Promise<T> =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve as (v: unknown) => void);
      child.send({ id, op } satisfies Request);
    });
  return {
    arrays: ready.arrays,
    down: ready.down,
    startFaults: () => call("startFaults"),
    stopFaults: () => call("stopFaults"),
    effects: () => call("effects"),
    memory: () => call("memory"),
    fileSystems: () => call("fileSystems"),
    async close() {
      const exited = new Promise((r) => child.once("exit", r));
      await call("close");
      await exited;
    },
  };
}

export function startFleet(o: FleetOptions): Promise<Fleet> {
  return o.child === true ? startChildFleet(o) : startLocalFleet(o);
}
