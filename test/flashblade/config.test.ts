import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { parseArraysConfig, resolveArrays } from "../../src/config/arrays.js";
import { Secret } from "../../src/config/secret.js";
import { BotError } from "../../src/errors.js";

const ok = { name: "fb-lab-01", address: "https://10.0.0.5", api_token_env: "FB_LAB_TOKEN", tags: ["lab"] };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof BotError) return (err.details.problems as string[]) ?? [];
    throw err;
  }
  throw new Error("expected a configuration error");
}

describe("arrays configuration", () => {
  it("applies defaults and keeps the origin without a path", () => {
    const [a] = parseArraysConfig([ok]);
    expect(a).toMatchObject({
      address: "https://10.0.0.5",
      insecure: false,
      connections: 4,
      rate: { max_concurrent: 8, min_spacing_ms: 0, max_queue: 1000 },
      timeouts: { connect_ms: 10_000, read_ms: 30_000 },
      down_after_failures: 3,
    });
    expect(parseArraysConfig([{ ...ok, address: "https://fb.example.com:8443/" }])[0]?.address).toBe(
      "https://fb.example.com:8443",
    );
  });

  it("reports every problem at once, each with its path", () => {
    const found = problems(() =>
      parseArraysConfig([
        { ...ok, address: "http://fb1", api_version: "1.13" },
        { name: "fb 2", address: "https://fb2/api", api_token: "T-secret-inline", tags: ["Prod"] },
        { ...ok, rate: { max_concurrent: 0 }, colour: "blue" },
      ]),
    );
    const joined = found.join("\n");
    expect(joined).toMatch(/arrays\[0\]\.address: "http:\/\/fb1" must be https:\/\/host/);
    expect(joined).toMatch(/arrays\[0\]\.api_version: must be one of/);
    expect(joined).toMatch(/arrays\[1\]\.name:/);
    expect(joined).toMatch(/arrays\[1\]\.address: .*no path/);
    expect(joined).toMatch(/arrays\[1\]\.api_token: inline api_token is not allowed/);
    expect(joined).toMatch(/arrays\[1\]\.tags\[0\]:/);
    expect(joined).toMatch(/arrays\[2\]\.rate\.max_concurrent:/);
    expect(joined).toMatch(/arrays\[2\]/);
    expect(joined).not.toContain("T-secret-inline");
  });

  it("rejects contradictions and duplicates", () => {
    expect(problems(() => parseArraysConfig([{ ...ok, api_token_file: "/t" }])).join()).toMatch(
      /only one of/,
    );
    expect(problems(() => parseArraysConfig([{ ...ok, insecure: true, ca_file: "/ca.pem" }])).join()).toMatch(
      /insecure/,
    );
    expect(problems(() => parseArraysConfig([ok, { ...ok, name: "FB-LAB-01" }])).join()).toMatch(/duplicate/);
    expect(problems(() => parseArraysConfig([{ name: "x", address: "https://x" }])).join()).toMatch(
      /api_token_env or api_token_file/,
    );
    expect(problems(() => parseArraysConfig([])).join()).toMatch(/at least one array/);
  });

  it("resolves tokens from the environment or a file and the CA from a file", () => {
    const files: Record<string, string> = {
      "/etc/bot/fb2.token": "T-file-token\n",
      "/etc/bot/ca.pem": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    };
    const parsed = parseArraysConfig([
      ok,
      { name: "fb2", address: "https://fb2:8443", api_token_file: "fb2.token", ca_file: "/etc/bot/ca.pem" },
    ]);
    const [a, b] = resolveArrays(parsed, {
      env: { FB_LAB_TOKEN: "T-env-token" },
      readFile: (p) => {
        const f = files[p];
        if (f === undefined) throw Object.assign(new Error("nope"), { code: "ENOENT" });
        return f;
      },
      baseDir: "/etc/bot",
    });
    expect(a?.apiToken?.reveal()).toBe("T-env-token");
    expect(b?.apiToken?.reveal()).toBe("T-file-token");
    expect(b?.ca).toContain("BEGIN CERTIFICATE");
    expect(b?.origin).toBe("https://fb2:8443");
    expect(JSON.stringify(a)).not.toContain("T-env-token");
    expect(inspect(a)).not.toContain("T-env-token");
    expect(String(a?.apiToken)).toBe("[redacted]");
  });

  it("reports every missing secret together", () => {
    const parsed = parseArraysConfig([
      ok,
      { name: "fb2", address: "https://fb2", api_token_file: "/missing", ca_file: "/also-missing" },
    ]);
    const found = problems(() =>
      resolveArrays(parsed, {
        env: {},
        readFile: () => {
          throw Object.assign(new Error("nope"), { code: "ENOENT" });
        },
      }),
    );
    expect(found).toEqual([
      "arrays[0].api_token_env: environment variable FB_LAB_TOKEN is not set",
      'arrays[1].api_token_file: cannot read token file "/missing" (ENOENT)',
      'arrays[1].ca_file: cannot read CA file "/also-missing" (ENOENT)',
    ]);
  });

  it("Secret never serialises its value", () => {
    const s = new Secret("T-abc");
    expect(`${s}`).toBe("[redacted]");
    expect(JSON.stringify({ s })).toBe('{"s":"[redacted]"}');
  });
});
