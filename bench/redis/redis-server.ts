/**
 * A real `redis-server` for tests and the load test's failover mode: started on a free loopback port with its own temporary directory, waited
 * for by its "Ready to accept connections" line (never by time), killed and restarted on the same port and
 * directory when a test needs Redis to go away and come back.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  readonly port: number;
  readonly dir: string;
  /** Kills the server without letting it save (SIGKILL): only what it already persisted survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** SIGSTOP: the server hangs with its connections open (what a silent network partition looks like). */
  pause(): void;
  /** SIGCONT: it answers again, queued commands included. */
  resume(): void;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/**
 * Servers started here die with this process, however it ends: a test that times out never reaches its close(),
 * and its Redis and sentinels outlived the test run, still holding ports and CPU (seen after a load-failover
 * timeout). "exit" handlers run even on process.exit(), and the kill is sent synchronously. A SIGTERM or SIGINT
 * nobody else handles would end the process without "exit": the servers are killed, then the signal is raised
 * again so the process ends as it would have. A process that handles the signal itself exits in its own time.
 */
const running = new Set<ChildProcess>();
let reaping = false;
const reap = () => {
  for (const r of running) r.kill("SIGKILL");
};
export function dieWithThisProcess(c: ChildProcess): ChildProcess {
  running.add(c);
  c.once("exit", () => running.delete(c));
  if (!reaping) {
    reaping = true;
    process.once("exit", reap);
    for (const signal of ["SIGTERM", "SIGINT"] as const)
      process.once(signal, () => {
        if (process.listenerCount(signal) > 0) return;
        reap();
        process.kill(process.pid, signal);
      });
  }
  return c;
}

/** A loopback port nothing listens on now (for a child server to take). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function startRedis(
  opts: { persistence?: boolean; args?: readonly string[]; tls?: { cert: string; key: string } } = {},
): Promise<RedisServer> {
  const bin = process.env.REDIS_SERVER ?? "redis-server";
  const dir = mkdtempSync(join(tmpdir(), "redis-test-"));
  const port = await freePort();
  // Append-only file fsynced on every write: with persistence on, a write Redis answered survives SIGKILL.
  const tlsArgs: string[] = [];
  if (opts.tls) {
    writeFileSync(join(dir, "cert.pem"), opts.tls.cert);
    writeFileSync(join(dir, "key.pem"), opts.tls.key, { mode: 0o600 });
    tlsArgs.push("--tls-cert-file", join(dir, "cert.pem"), "--tls-key-file", join(dir, "key.pem"));
    tlsArgs.push("--tls-ca-cert-file", join(dir, "cert.pem"), "--tls-auth-clients", "no");
  }
  // With TLS the port speaks TLS only.
  const args = [
    ...(opts.tls ? ["--port", "0", "--tls-port", String(port), ...tlsArgs] : ["--port", String(port)]),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    opts.persistence ? "yes" : "no",
    "--appendfsync",
    "always",
    "--protected-mode",
    "no",
    ...(opts.args ?? []),
  ];
  let child: ChildProcess | undefined;

  const start = () => {
    const c = dieWithThisProcess(spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] }));
    child = c;
    return readyWhen(c, "Ready to accept connections", `${bin} (install redis-server, or set REDIS_SERVER)`);
  };

  const kill = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });

  await start();
  return {
    port,
    dir,
    kill,
    start,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once the child prints `marker` on stdout (then lets the rest of its output drain); rejects, naming
 * `what`, when it cannot start or exits first, with what it printed.
 */
export function readyWhen(c: ChildProcess, marker: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes(marker)) {
        c.stdout?.off("data", onData);
        c.stdout?.resume();
        resolve();
      }
    };
    c.stdout?.on("data", onData);
    c.stderr?.resume();
    c.once("error", (err) => reject(new Error(`cannot start ${what}: ${err.message}`)));
    c.once("exit", (code) => reject(new Error(`${what} exited with ${code} before it was ready:\n${out}`)));
  });
}
