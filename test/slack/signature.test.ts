/**
 * The receiver's signature check (src/slack/signature.ts) on its own: every verdict, with the clock injected.
 * The same check behind the real receiver is exercised end to end in test/security/signatures.test.ts.
 */

import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hmacSha256, MAX_SKEW_SEC, signatureCheck } from "../../src/slack/signature.js";
import { slackSignature } from "../fakes/signed-request.js";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const NOW_SEC = 1_790_000_000;
const check = signatureCheck(SECRET, () => NOW_SEC * 1000);
const body = Buffer.from("command=%2Farray&text=fs+list&user_id=U1");
const signed = (ts: number, b: Buffer | string = body, secret = SECRET) =>
  slackSignature(secret, ts, String(b));

describe("Slack signature check", () => {
  it("accepts Slack's v0 signature of the exact bytes within the window", () => {
    expect(check(String(NOW_SEC), signed(NOW_SEC), body)).toBe("ok");
    expect(check([String(NOW_SEC)], [signed(NOW_SEC)], body)).toBe("ok");
    expect(check(String(NOW_SEC - MAX_SKEW_SEC), signed(NOW_SEC - MAX_SKEW_SEC), body)).toBe("ok");
    expect(check(String(NOW_SEC + MAX_SKEW_SEC), signed(NOW_SEC + MAX_SKEW_SEC), body)).toBe("ok");
    const utf8 = Buffer.from("text=caf%C3%A9&x=é");
    expect(check(String(NOW_SEC), signed(NOW_SEC, utf8.toString("utf8")), utf8)).toBe("ok");
  });

  it("refuses a tampered body, another secret, and a signature for another time", () => {
    expect(check(String(NOW_SEC), signed(NOW_SEC), Buffer.from(`${body}&x=1`))).toBe("mismatch");
    expect(check(String(NOW_SEC), signed(NOW_SEC, body, "another-signing-secret-00000000"), body)).toBe(
      "mismatch",
    );
    expect(check(String(NOW_SEC), signed(NOW_SEC - 1), body)).toBe("mismatch");
  });

  it("refuses malformed signatures: other versions, short, long, upper-case or non-hex digests", () => {
    const hex = signed(NOW_SEC).slice(3);
    for (const sig of [
      `v1=${hex}`,
      `v0=${hex.slice(0, 63)}`,
      `v0=${hex}0`,
      `v0=${hex.toUpperCase()}`,
      `v0=${hex.slice(0, 62)}zz`,
      "v0=",
      "",
      hex,
    ]) {
      expect(check(String(NOW_SEC), sig, body)).toBe("mismatch");
    }
  });

  it("refuses requests with no or odd timestamps, stale ones and ones dated ahead", () => {
    expect(check(undefined, signed(NOW_SEC), body)).toBe("unsigned");
    expect(check(String(NOW_SEC), undefined, body)).toBe("unsigned");
    for (const ts of ["", "1.5e9", "-1", " 1790000000", "0x6AB0C680", "NaN"]) {
      expect(check(ts, signed(NOW_SEC), body)).toBe("unsigned");
    }
    const old = NOW_SEC - MAX_SKEW_SEC - 1;
    expect(check(String(old), signed(old), body)).toBe("stale");
    const ahead = NOW_SEC + MAX_SKEW_SEC + 1;
    expect(check(String(ahead), signed(ahead), body)).toBe("future");
  });

  it("computes HMAC-SHA256 as Node's createHmac does, for keys shorter than, equal to and longer than a block", () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 128, 200]) {
      const key = randomBytes(keyLength);
      const mac = hmacSha256(key);
      for (const parts of [
        [],
        [Buffer.alloc(0)],
        [randomBytes(1)],
        [randomBytes(55), randomBytes(9)],
        [randomBytes(4096)],
      ]) {
        const expected = createHmac("sha256", key);
        for (const p of parts) expected.update(p);
        expect(mac(...parts).toString("hex"), `key of ${keyLength} bytes`).toBe(expected.digest("hex"));
      }
    }
  });
});
