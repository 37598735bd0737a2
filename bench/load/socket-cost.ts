/**
 * What one open socket costs the process holding it, outside the V8 heap: N sockets opened at once, then the
 * change in anonymous RSS, heap, external and ArrayBuffers after a full GC, per socket; and again once they are
 * closed (what malloc keeps). A tool for docs/benchmarks.md ("Where the bot's memory goes"), not part of a run.
 *   node --expose-gc dist/bench/load/socket-cost.js [N=400] [tls|tls-shared|http-client|http-server]
 * tls: undici Pools to simulated arrays (in a child process), as the bot's array pool opens them, with the CA
 * given per connection; tls-shared: with one TLS context per array (transport.ts); http-client: undici to a
 * plain HTTP server in a child (the fake Slack's case); http-server: keep-alive connections accepted by a
 * node:http server here (the bot's HTTP receiver), opened by a child.
 */
import { fork } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import { Agent, buildConnector, Pool, request } from "undici";
import { startChildFleet } from "./fleet.js";
import { rssSplit } from "./sockets.js";

const n = Number(process.argv[2] ?? 400);
const kind = process.argv[3] ?? "tls";
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

type Mem = Record<"rssAnonKiB" | "heapUsedKiB" | "externalKiB" | "arrayBuffersKiB", number>;
function mem(): Mem {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    rssAnonKiB: (rssSplit()?.anonMiB ?? 0) * 1024,
    heapUsedKiB: m.heapUsed / 1024,
    externalKiB: m.external / 1024,
    arrayBuffersKiB: m.arrayBuffers / 1024,
  };
}
const perSocket = (a: Mem, b: Mem) =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, ((b[k as keyof Mem] - v) / n).toFixed(1)]));

/** A child process running `code` (an ES module body), which sends one message when ready. */
function child(code: string): { ready: Promise<unknown>; kill: () => void } {
  const file = join(mkdtempSync(join(tmpdir(), "socket-cost-")), "child.mjs");
  writeFileSync(file, code);
  const c = fork(file);
  return { ready: new Promise((r) => c.once("message", r)), kill: () => c.kill() };
}

if (kind === "tls" || kind === "tls-shared") {
  const fleet = await startChildFleet({ arrays: 4, faults: false });
  const per = Math.ceil(n / fleet.arrays.length);
  const pools = fleet.arrays.map(
    (a) =>
      new Pool(a.url, {
        connections: per,
        keepAliveTimeout: 600_000,
        connect: buildConnector(
          kind === "tls-shared" ? { secureContext: createSecureContext({ ca: a.ca }) } : { ca: a.ca },
        ),
      }),
  );
  const get = async (p: Pool) => (await p.request({ path: "/api/api_version", method: "GET" })).body.text();
  for (const p of pools) await get(p);
  const m0 = mem();
  await Promise.all(pools.flatMap((p) => Array.from({ length: per }, () => get(p))));
  const m1 = mem();
  const open = pools.reduce((k, p) => k + p.stats.connected, 0);
  console.log(`${kind}: ${open} TLS sockets to arrays; per socket (KiB)`, perSocket(m0, m1));
  await Promise.all(pools.map((p) => p.close()));
  console.log("closed; still held per socket (KiB)", perSocket(m0, mem()));
  await fleet.close();
} else if (kind === "http-client") {
  const server = child(
    `import { createServer } from "node:http";
     const s = createServer({ keepAliveTimeout: 600000 }, (q, r) => { q.resume(); q.on("end", () => r.end("{}")); });
     s.listen(0, "127.0.0.1", () => process.send(s.address().port));`,
  );
  const url = `http://127.0.0.1:${String(await server.ready)}/api/x`;
  const agent = new Agent({ keepAliveTimeout: 600_000 });
  const post = async () =>
    (await request(url, { dispatcher: agent, method: "POST", body: "x".repeat(2000) })).body.text();
  await post();
  const m0 = mem();
  await Promise.all(Array.from({ length: n }, post));
  const m1 = mem();
  console.log(`http-client: ${n} plain HTTP sockets (undici); per socket (KiB)`, perSocket(m0, m1));
  await agent.close();
  console.log("closed; still held per socket (KiB)", perSocket(m0, mem()));
  server.kill();
} else {
  const server = createServer((q, r) => {
    q.resume();
    q.on("end", () => r.end("ok"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const m0 = mem();
  const clients = child(
    `await Promise.all(Array.from({ length: ${n} }, () =>
       fetch("http://127.0.0.1:${port}/slack/events", { method: "POST", body: "x".repeat(3000) }).then((r) => r.text())));
     process.send("done"); setInterval(() => {}, 1000);`,
  );
  await clients.ready;
  const open = await new Promise<number>((r) => server.getConnections((_e, k) => r(k)));
  console.log(
    `http-server: ${open} keep-alive connections accepted; per connection (KiB)`,
    perSocket(m0, mem()),
  );
  clients.kill();
  server.close();
}
process.exit(0);
