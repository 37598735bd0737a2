/**
 * The syslog exporter against real collectors on loopback: a TCP server and a TLS one with a self-signed
 * certificate, both reading RFC 6587 octet-counted frames. Back-off waits are handed to the test, so a collector
 * that is down, then up, is a sequence of steps and never a race against time.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuditExport } from "../../src/audit-export/index.js";
import type { Wait } from "../../src/audit-export/queue.js";
import { auditExportSchema } from "../../src/config/audit-export.js";
import type { AuditRecord } from "../../src/core/audit/audit.js";
import { type ChainedRecord, chainAfter, recordHash } from "../../src/core/audit/audit-chain.js";
import { silentLogger } from "../../src/logger.js";
import { selfSignedCertificate, type TlsMaterial } from "../../src/simulator/tls.js";

const base: AuditRecord = {
  id: "r",
  at: "2026-11-28T09:00:00.000Z",
  userId: "bob",
  channelId: "C1",
  arrays: ["lab-1"],
  command: "fs.resize",
  args: { name: "scratch", note: "ünïcode and \n a newline" },
  decision: "allowed",
  outcome: "ok",
  durationMs: 1,
};

/** Records 1..n of one chain. */
function chain(n: number): ChainedRecord[] {
  const out: ChainedRecord[] = [];
  for (let i = 0; i < n; i++) out.push(chainAfter(out.at(-1), { ...base, id: `r${i + 1}` }));
  return out;
}

/** A collector: parses octet-counted frames and resolves `received(n)` once n messages came. */
class Collector {
  readonly messages: string[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];
  readonly sockets = new Set<Socket>();
  server: Server | undefined;

  handle = (socket: Socket) => {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    let buf = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const space = buf.indexOf(0x20);
        if (space < 0) return;
        const len = Number(buf.subarray(0, space).toString("ascii"));
        if (buf.length < space + 1 + len) return;
        this.messages.push(buf.subarray(space + 1, space + 1 + len).toString("utf8"));
        buf = buf.subarray(space + 1 + len);
      }
    });
    socket.on("data", () => this.check());
  };

  private check() {
    const ready = this.waiters.filter((w) => this.messages.length >= w.n);
    this.waiters = this.waiters.filter((w) => this.messages.length < w.n);
    for (const w of ready) w.resolve();
  }

  received(n: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ n, resolve });
      this.check();
    });
  }

  async listen(server: Server, port = 0): Promise<number> {
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const addr = server.address();
    return typeof addr === "object" && addr ? addr.port : 0;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Back-off waits the test releases one by one; `next()` resolves with the delay asked for. */
function steppedWait() {
  const asked: { ms: number; release: () => void }[] = [];
  let notify: (() => void) | undefined;
  const wait: Wait = (ms, signal) =>
    new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve(), { once: true });
      asked.push({ ms, release: resolve });
      notify?.();
    });
  return {
    wait,
    next: () =>
      new Promise<{ ms: number; release: () => void }>((resolve) => {
        const take = () => {
          const w = asked.shift();
          if (w) resolve(w);
          else notify = take;
        };
        take();
      }),
  };
}

const RFC5424 = /^<110>1 (\S+) test-host array-chatops-test 4242 audit - (\{.*\})$/s;

let tls: TlsMaterial;
let dir: string;
beforeAll(async () => {
  tls = await selfSignedCertificate();
  dir = mkdtempSync(join(tmpdir(), "audit-syslog-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const head = { hostname: "test-host", procId: "4242", logger: silentLogger() };

describe("the syslog export", () => {
  it("sends each record as an RFC 5424 message in an octet-counted frame over TCP, in order", async () => {
    const c = new Collector();
    const port = await c.listen(createNetServer(c.handle));
    const cfg = auditExportSchema.parse({
      syslog: { host: "127.0.0.1", port, app_name: "array-chatops-test" },
    });
    const ex = openAuditExport(cfg, head);
    const recs = chain(3);
    for (const r of recs) ex.enqueue(r);
    await c.received(3);
    const parsed = c.messages.map((m) => RFC5424.exec(m));
    expect(parsed.map((p) => p?.[1])).toEqual(recs.map((r) => r.at));
    const back = parsed.map((p) => JSON.parse(p?.[2] ?? "null") as ChainedRecord);
    expect(back.map((r) => r.seq)).toEqual([1, 2, 3]);
    for (const r of back) expect(recordHash(r)).toBe(r.hash);
    await ex.close();
    await c.close();
  });

  it.each(["localhost", "127.0.0.1"])(
    "speaks TLS to %s, whose certificate ca_file vouches for",
    async (host) => {
      const caFile = join(dir, "ca.pem");
      writeFileSync(caFile, tls.cert);
      const c = new Collector();
      const port = await c.listen(createTlsServer({ key: tls.key, cert: tls.cert }, c.handle));
      const cfg = auditExportSchema.parse({
        syslog: { host, port, tls: true, ca_file: caFile, app_name: "array-chatops-test" },
      });
      const ex = openAuditExport(cfg, head);
      for (const r of chain(2)) ex.enqueue(r);
      await c.received(2);
      expect(c.messages.every((m) => RFC5424.test(m))).toBe(true);
      await ex.close();
      await c.close();
    },
  );

  it("does not send to a TLS collector it cannot verify, and keeps backing off", async () => {
    const c = new Collector();
    const port = await c.listen(createTlsServer({ key: tls.key, cert: tls.cert }, c.handle));
    const steps = steppedWait();
    // No ca_file: the system's CAs, which never signed a self-signed certificate.
    const cfg = auditExportSchema.parse({ syslog: { host: "localhost", port, tls: true } });
    const ex = openAuditExport(cfg, { ...head, wait: steps.wait, backoffMs: { first: 100, max: 250 } });
    ex.enqueue(chain(1)[0] as ChainedRecord);
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const w = await steps.next();
      delays.push(w.ms);
      w.release();
    }
    expect(delays).toEqual([100, 200, 250]);
    expect(c.messages).toEqual([]);
    await ex.close();
    await c.close();
  });

  it("waits out a collector that is down, drops the oldest past the bound and counts them, then delivers", async () => {
    // A port nobody listens on until the collector starts there.
    const probe = new Collector();
    const port = await probe.listen(createNetServer(probe.handle));
    await probe.close();
    const steps = steppedWait();
    const dropped: [string, number][] = [];
    const cfg = auditExportSchema.parse({
      syslog: { host: "127.0.0.1", port, app_name: "array-chatops-test" },
      queue: 10,
    });
    const ex = openAuditExport(cfg, {
      ...head,
      wait: steps.wait,
      onDropped: (target, n) => dropped.push([target, n]),
    });
    const recs = chain(15);
    for (const r of recs) ex.enqueue(r);
    expect(dropped.reduce((n, [, k]) => n + k, 0)).toBe(5);
    expect(new Set(dropped.map(([t]) => t))).toEqual(new Set(["syslog"]));
    const first = await steps.next();
    const c = new Collector();
    await c.listen(createNetServer(c.handle), port);
    first.release();
    await c.received(10);
    await ex.flush();
    const seqs = c.messages.map((m) => (JSON.parse(RFC5424.exec(m)?.[2] ?? "null") as ChainedRecord).seq);
    expect(seqs).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    await ex.close();
    await c.close();
  });
});
