/** The `api_client:` setting of an array: validated at load, its private key read once and never printable. */
import { generateKeyPairSync } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { parseArraysConfig, resolveArrays } from "../../src/config/arrays.js";
import { BotError } from "../../src/errors.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const RSA_PEM = String(rsa.privateKey.export({ type: "pkcs1", format: "pem" }));
const EC_PEM = String(
  generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }),
);
const client = { id: "c-1", key_id: "k-1", issuer: "array-chatops", username: "chatops" };
const base = { name: "fb-2x", address: "https://10.0.0.9" };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof BotError) return (err.details["problems"] as string[]) ?? [];
    throw err;
  }
  throw new Error("expected a configuration error");
}

function load(apiClient: Record<string, unknown>, env: Record<string, string> = {}, files = {}) {
  const parsed = parseArraysConfig([{ ...base, api_client: apiClient }]);
  return resolveArrays(parsed, {
    env,
    readFile: (p) => {
      const text = (files as Record<string, string>)[p];
      if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return text;
    },
    baseDir: "/etc/bot",
  });
}

describe("api_client", () => {
  it("takes the key from a file or an environment variable, and never prints it", () => {
    const [fromFile] = load(
      { ...client, private_key_file: "keys/bot.pem" },
      {},
      { "/etc/bot/keys/bot.pem": RSA_PEM },
    );
    const [fromEnv] = load({ ...client, private_key_env: "FB_KEY" }, { FB_KEY: RSA_PEM });
    for (const a of [fromFile, fromEnv]) {
      expect(a).toMatchObject({
        apiClient: { id: "c-1", keyId: "k-1", issuer: "array-chatops", username: "chatops" },
        tokenSetting: "api_client",
      });
      expect(a?.apiToken).toBeUndefined();
      expect(a?.apiClient?.privateKey.reveal().asymmetricKeyType).toBe("rsa");
      const shown = `${JSON.stringify(a)} ${inspect(a, { depth: 9 })} ${String(a?.apiClient?.privateKey)}`;
      expect(shown).not.toContain(RSA_PEM.split("\n")[1]);
      expect(shown).toContain("[redacted]");
    }
  });

  it("refuses an inline key, no key or two, a token beside it, and missing fields, each with its path", () => {
    const found = problems(() =>
      parseArraysConfig([
        { ...base, api_client: { ...client, private_key: RSA_PEM } },
        { ...base, name: "b", api_client: { ...client } },
        { ...base, name: "c", api_client: { ...client, private_key_env: "A", private_key_file: "k.pem" } },
        { ...base, name: "d", api_token_env: "T", api_client: { ...client, private_key_env: "A" } },
        { ...base, name: "e", api_client: { id: "c-1", private_key_env: "A" } },
      ]),
    );
    expect(found.join("\n")).not.toContain(RSA_PEM.split("\n")[1]);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^arrays\[0\]\.api_client\.private_key: an inline private_key is not allowed/),
        expect.stringMatching(
          /^arrays\[1\]\.api_client\.private_key_file: give private_key_file or private_key_env/,
        ),
        expect.stringMatching(/^arrays\[2\]\.api_client\.private_key_file: give only one of/),
        expect.stringMatching(
          /^arrays\[3\]\.api_client: give either an API token .* or api_client, not both/,
        ),
        expect.stringMatching(/^arrays\[4\]\.api_client\.key_id: /),
        expect.stringMatching(/^arrays\[4\]\.api_client\.issuer: /),
        expect.stringMatching(/^arrays\[4\]\.api_client\.username: /),
      ]),
    );
  });

  it("names an unset variable, an unreadable file, and a key that is not RSA", () => {
    expect(problems(() => load({ ...client, private_key_env: "FB_KEY" }))).toEqual([
      "arrays[0].api_client.private_key_env: environment variable FB_KEY is not set",
    ]);
    expect(problems(() => load({ ...client, private_key_file: "/k.pem" }))).toEqual([
      'arrays[0].api_client.private_key_file: cannot read private key file "/k.pem" (ENOENT)',
    ]);
    expect(problems(() => load({ ...client, private_key_env: "K" }, { K: "not a key" }))).toEqual([
      "arrays[0].api_client.private_key_env: holds no readable private key (an unencrypted RSA key in PEM)",
    ]);
    expect(problems(() => load({ ...client, private_key_env: "K" }, { K: EC_PEM }))).toEqual([
      "arrays[0].api_client.private_key_env: the key is ec; API clients sign with RSA (RS256)",
    ]);
  });
});
