/**
 * What the bot's process keeps per socket. Node 24 cuts small Buffers from 64 KiB slabs, and a TLS socket keeps
 * its ALPN list (9 bytes, cut from a slab) for its whole life: under the load test's 200 arrays, with sockets
 * replaced all the time, each live socket came to pin a slab of its own (heap snapshots: 64 KiB ArrayBuffers
 * held by TLSSocket._tlsOptions.ALPNProtocols; external memory 11 → 26 MiB over 10 minutes).
 */
import * as tls from "node:tls";
import { describe, expect, it } from "vitest";
import { holdContext, tlsOptions } from "../../src/flashblade/tls-context.js";
import { applyProcessSettings, BUFFER_POOL_BYTES } from "../../src/ops/heap-options.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";

describe("the bot's process settings", () => {
  it("make what a TLS socket keeps for its life pin at most an 8 KiB slab", () => {
    applyProcessSettings();
    expect(Buffer.poolSize).toBe(BUFFER_POOL_BYTES);
    // The slab in use when the setting is applied is used up first (64 KiB, once); the ones after are 8 KiB.
    for (let i = 0; i < 100 && Buffer.allocUnsafe(1024).buffer.byteLength > BUFFER_POOL_BYTES; i++);
    const kept: { ALPNProtocols?: Buffer } = {};
    // What tls.connect does with undici's ["http/1.1"] for every socket to an array (exported, not typed).
    const { convertALPNProtocols } = tls as unknown as {
      convertALPNProtocols: (protocols: string[], out: { ALPNProtocols?: Buffer }) => void;
    };
    convertALPNProtocols(["http/1.1"], kept);
    expect(kept.ALPNProtocols?.byteLength).toBe(9);
    expect(kept.ALPNProtocols?.buffer.byteLength).toBeLessThanOrEqual(8 * 1024);
  });
});

describe("the TLS options of an array's sockets", () => {
  it("carry a context built beforehand, not a CA for each connection to parse again", () => {
    const held = holdContext(undefined);
    const a = tlsOptions({ insecure: false }, held.ctx);
    expect(a.rejectUnauthorized).toBe(true);
    expect(a.secureContext).toBeInstanceOf(tls.createSecureContext().constructor);
    expect(a).not.toHaveProperty("ca");
    expect(tlsOptions({ insecure: true }, held.ctx).rejectUnauthorized).toBe(false);
    held.release();
  });

  it("share one context per CA while an array holds it, and build a new one once all have let go", async () => {
    const { cert } = await selfSignedCertificate();
    const a = holdContext(cert);
    const b = holdContext(cert);
    expect(b.ctx).toBe(a.ctx);
    expect(holdContext(undefined).ctx).not.toBe(a.ctx);
    a.release();
    a.release();
    const c = holdContext(cert);
    expect(c.ctx).toBe(a.ctx);
    b.release();
    c.release();
    const d = holdContext(cert);
    expect(d.ctx).not.toBe(a.ctx);
    d.release();
  });
});
