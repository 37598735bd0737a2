/**
 * Slack's request signature (v0: HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret), checked once
 * per request in front of Bolt's receiver. Bolt's own check runs on the ack's path and costs three HMACs per
 * request (tsscmp compares by hashing both sides again under a fresh random key) plus a key derived from the
 * secret string each time; this one hashes once and compares the raw digests in constant time. Same rules as
 * Slack's: a request older than five minutes is stale, and, beyond Bolt, one dated more than five minutes ahead
 * is refused too (a signed request must not stay replayable for longer).
 */
import { hash, timingSafeEqual } from "node:crypto";

/** Slack's replay window, both ways. */
export const MAX_SKEW_SEC = 5 * 60;

export type SignatureVerdict = "ok" | "unsigned" | "stale" | "future" | "mismatch";

type Header = string | string[] | undefined;

const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^[0-9]{1,12}$/;

const one = (h: Header): string | undefined => (Array.isArray(h) ? h[0] : h);

export type SignatureCheck = (timestamp: Header, signature: Header, body: Buffer) => SignatureVerdict;

/** SHA-256's block size: HMAC pads its key to it. */
const BLOCK = 64;

/**
 * HMAC-SHA256 as RFC 2104 defines it, H((K ^ opad) || H((K ^ ipad) || m)), with the two padded keys made once.
 * Node's createHmac builds a keyed object per message: on the ack's path, between the other requests of a burst,
 * the whole check cost ~25 µs a request, and ~15 µs with two one-shot hashes (timed inside the e2e benchmark's
 * rounds of 50 commands, 2026-11-29): fifty commands at once each wait on the checks of those before them.
 * test/slack/signature.test.ts holds it equal to createHmac for keys shorter than, equal to and longer than a block.
 */
export function hmacSha256(key: Buffer): (...message: Buffer[]) => Buffer {
  const k = Buffer.alloc(BLOCK);
  (key.length > BLOCK ? hash("sha256", key, "buffer") : key).copy(k);
  const inner = Buffer.allocUnsafeSlow(BLOCK);
  const outer = Buffer.allocUnsafeSlow(BLOCK);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = (k[i] as number) ^ 0x36;
    outer[i] = (k[i] as number) ^ 0x5c;
  }
  k.fill(0);
  return (...message) =>
    hash(
      "sha256",
      Buffer.concat([outer, hash("sha256", Buffer.concat([inner, ...message]), "buffer")]),
      "buffer",
    );
}

/** `now` is wall-clock milliseconds, as Slack's timestamps are; tests pass their own. */
export function signatureCheck(secret: string, now: () => number = Date.now): SignatureCheck {
  const mac = hmacSha256(Buffer.from(secret, "utf8"));
  return (timestamp, signature, body) => {
    const ts = one(timestamp);
    const sig = one(signature);
    if (ts === undefined || sig === undefined || !TIMESTAMP.test(ts)) return "unsigned";
    const hex = SIGNATURE.exec(sig)?.[1];
    if (hex === undefined) return "mismatch";
    const nowSec = now() / 1000;
    const tsSec = Number(ts);
    if (tsSec < nowSec - MAX_SKEW_SEC) return "stale";
    if (tsSec > nowSec + MAX_SKEW_SEC) return "future";
    const ours = mac(Buffer.from(`v0:${ts}:`, "latin1"), body);
    return timingSafeEqual(ours, Buffer.from(hex, "hex")) ? "ok" : "mismatch";
  };
}
