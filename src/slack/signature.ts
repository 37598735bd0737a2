/**
 * Slack's request signature (v0: HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret), checked once
 * per request in front of Bolt's receiver. Bolt's own check runs on the ack's path and costs three HMACs per
 * request (tsscmp compares by hashing both sides again under a fresh random key) plus a key derived from the
 * secret string each time; this one derives the key once, hashes once and compares the raw digests in
 * constant time. Same rules as Slack's: a request older than five minutes is stale, and, beyond Bolt, one
 * dated more than five minutes ahead is refused too (a signed request must not stay replayable for longer).
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

/** Slack's replay window, both ways. */
export const MAX_SKEW_SEC = 5 * 60;

export type SignatureVerdict = "ok" | "unsigned" | "stale" | "future" | "mismatch";

type Header = string | string[] | undefined;

const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^[0-9]{1,12}$/;

const one = (h: Header): string | undefined => (Array.isArray(h) ? h[0] : h);

export type SignatureCheck = (timestamp: Header, signature: Header, body: Buffer) => SignatureVerdict;

/** `now` is wall-clock milliseconds, as Slack's timestamps are; tests pass their own. */
export function signatureCheck(secret: string, now: () => number = Date.now): SignatureCheck {
  const key: KeyObject = createSecretKey(Buffer.from(secret, "utf8"));
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
    const ours = createHmac("sha256", key).update(`v0:${ts}:`).update(body).digest();
    return timingSafeEqual(ours, Buffer.from(hex, "hex")) ? "ok" : "mismatch";
  };
}
