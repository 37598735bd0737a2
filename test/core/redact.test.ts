import { describe, expect, test } from "vitest";
import { REDACTED, redactSecrets } from "../../src/core/redact.js";

describe("redactSecrets", () => {
  test("values under secret keys go, everything else stays", () => {
    expect(
      redactSecrets({
        host: "h",
        v2c: { community: "c1", user: "u" },
        api_token: "T",
        access_token_ttl_in_ms: 5,
      }),
    ).toEqual({
      host: "h",
      v2c: { community: REDACTED, user: "u" },
      api_token: REDACTED,
      access_token_ttl_in_ms: 5,
    });
  });

  test("JSON typed into a line loses its secrets, including escaped quotes", () => {
    const line = `api PATCH /admins '{"password": "a\\"b", "old_password":"x", "name":"pureuser"}'`;
    const out = redactSecrets(line);
    expect(out).toBe(
      `api PATCH /admins '{"password": "${REDACTED}", "old_password":"${REDACTED}", "name":"pureuser"}'`,
    );
  });

  test("lists and plain values pass through", () => {
    expect(redactSecrets(["a", { private_key: "k" }, 3])).toEqual(["a", { private_key: REDACTED }, 3]);
    expect(redactSecrets("fs list")).toBe("fs list");
  });
});
