/**
 * An array's client hello shares a key for the group its TLS chose last, not OpenSSL's two default shares, while
 * still offering every group (src/flashblade/tls-context.ts). A TCP relay in front of the simulator reads each
 * client hello the bot sends: the groups it offers and the groups it shares a key for. Real HTTPS on loopback.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SocketBudget } from "../../src/flashblade/socket-budget.js";
import { Transport } from "../../src/flashblade/transport.js";
import {
  type Simulator,
  selfSignedCertificate,
  simulatedArrayConfig,
  startSimulator,
} from "../../src/simulator/index.js";

/** TLS group code points (IANA). */
const MLKEM = 0x11ec; // X25519MLKEM768
const X25519 = 0x001d;
const P256 = 0x0017;

interface Hello {
  offered: number[];
  shared: number[];
}

/** The supported_groups (10) and key_share (51) extensions of a ClientHello handshake message. */
function readHello(msg: Buffer): Hello {
  let at = 4 + 2 + 32; // handshake header, version, random
  at += 1 + (msg[at] as number); // session id
  at += 2 + msg.readUInt16BE(at); // cipher suites
  at += 1 + (msg[at] as number); // compression methods
  const end = at + 2 + msg.readUInt16BE(at);
  at += 2;
  const hello: Hello = { offered: [], shared: [] };
  while (at + 4 <= end) {
    const type = msg.readUInt16BE(at);
    const len = msg.readUInt16BE(at + 2);
    const data = msg.subarray(at + 4, at + 4 + len);
    if (type === 10) for (let i = 2; i < data.length; i += 2) hello.offered.push(data.readUInt16BE(i));
    if (type === 51) {
      for (let i = 2; i + 4 <= data.length; i += 4 + data.readUInt16BE(i + 2))
        hello.shared.push(data.readUInt16BE(i));
    }
    at += 4 + len;
  }
  return hello;
}

/** Relays TCP to `target` (changeable), reading the client hellos in each connection's plaintext records. */
async function relay(target: { port: number }): Promise<{ url: string; hellos: Hello[][]; server: Server }> {
  const hellos: Hello[][] = [];
  const server = createServer((client: Socket) => {
    const mine: Hello[] = [];
    hellos.push(mine);
    const upstream = tcpConnect(target.port, "127.0.0.1");
    let pending = Buffer.alloc(0);
    let reading = true;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (!reading) return;
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5) {
        const len = pending.readUInt16BE(3);
        if (pending.length < 5 + len) break;
        const type = pending[0];
        if (type === 0x16 && pending[5] === 0x01) mine.push(readHello(pending.subarray(5, 5 + len)));
        else if (type !== 0x14) reading = false; // encrypted from here on (a change_cipher_spec is still plain)
        pending = pending.subarray(5 + len);
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { url: `https://127.0.0.1:${port}`, hellos, server };
}

const sims: Simulator[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  for (const s of servers.splice(0)) s.close();
});

async function setUp(tlsGroups: string | undefined) {
  const tls = await selfSignedCertificate();
  const sim = await startSimulator({ scenario: "empty", tls, ...(tlsGroups ? { tlsGroups } : {}) });
  sims.push(sim);
  const target = { port: Number(new URL(sim.url).port) };
  const r = await relay(target);
  servers.push(r.server);
  const budget = new SocketBudget(8);
  const transport = new Transport(simulatedArrayConfig("fb-keys", { url: r.url, ca: sim.ca }), { budget });
  /** One call on a connection of its own. */
  const callAlone = async () => {
    const res = await transport.request({ method: "GET", path: "/api/api_version" });
    expect(res.status).toBe(200);
    transport.shed();
  };
  return { tls, target, hellos: r.hellos, budget, transport, callAlone };
}

describe("the key shares of an array's client hello", () => {
  it("share a key for the group an array without ML-KEM chose, still offering every group", async () => {
    const t = await setUp("X25519:P-256");
    await t.callAlone();
    expect(t.transport.holds().group).toBe("X25519");
    await t.callAlone();
    await t.callAlone();
    const [first, second, third] = t.hellos.map((c) => c[0] as Hello);
    // Before anything is known: OpenSSL's default shares, the hybrid and X25519.
    expect(first?.shared).toEqual([MLKEM, X25519]);
    // Then a key for X25519 alone: no ML-KEM key made for an array that never takes it.
    expect(second?.shared).toEqual([X25519]);
    expect(third?.shared).toEqual([X25519]);
    for (const h of [first, second, third])
      expect(h?.offered).toEqual(expect.arrayContaining([MLKEM, X25519, P256]));
    expect(t.budget.stats().handshakes).toEqual({ full: 1, resumed: 2 });
    await t.transport.close();
  });

  it("share the hybrid key alone where the array chose X25519MLKEM768", async () => {
    const t = await setUp(undefined);
    await t.callAlone();
    await t.callAlone();
    expect(t.transport.holds().group).toBe("X25519MLKEM768");
    expect(t.hellos.map((c) => c.map((h) => h.shared))).toEqual([[[MLKEM, X25519]], [[MLKEM]]]);
    expect(t.budget.stats().handshakes).toEqual({ full: 1, resumed: 1 });
    await t.transport.close();
  });

  it("follow an array that comes to prefer another group: it asks once, and that group is shared after", async () => {
    const t = await setUp("X25519:P-256");
    await t.callAlone();
    await t.callAlone();
    // The array is upgraded in place: same address and certificate, an OpenSSL that prefers ML-KEM.
    const upgraded = await startSimulator({ scenario: "empty", tls: t.tls });
    sims.push(upgraded);
    t.target.port = Number(new URL(upgraded.url).port);
    await t.callAlone();
    expect(t.transport.holds().group).toBe("X25519MLKEM768");
    await t.callAlone();
    const shares = t.hellos.map((c) => c.map((h) => h.shared));
    // The third connection's hello shared X25519; the array asked for the hybrid (a retry, same connection).
    expect(shares).toEqual([[[MLKEM, X25519]], [[X25519]], [[X25519], [MLKEM]], [[MLKEM]]]);
    await t.transport.close();
  });
});
