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

  test("a value typed after a secret's flag is redacted from the line; other options keep theirs", () => {
    expect(redactSecrets("directory update management --bind-password hunter2 --uris ldaps://l1")).toBe(
      `directory update management --bind-password ${REDACTED} --uris ldaps://l1`,
    );
    expect(redactSecrets("snmp manager create t1 --v2c-community='pub lic' --host h")).toBe(
      `snmp manager create t1 --v2c-community=${REDACTED} --host h`,
    );
    expect(redactSecrets("ad create ad1 --password --user joiner")).toBe(
      "ad create ad1 --password --user joiner",
    );
  });

  test("lists and plain values pass through", () => {
    expect(redactSecrets(["a", { private_key: "k" }, 3])).toEqual(["a", { private_key: REDACTED }, 3]);
    expect(redactSecrets("fs list")).toBe("fs list");
  });
});
