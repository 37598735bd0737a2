/**
 * The config loader against random YAML: arbitrary text, random documents built from the real vocabulary,
 * and the commented example with lines dropped or values swapped. Whatever the file holds, loading either
 * succeeds or throws a UserFacingError that names where the problem is, and never echoes a secret.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseConfigText } from "../../src/config/load.js";
import { UserFacingError } from "../../src/errors.js";

const SECRET = "T-fuzz-array-secret-7f3a";
const SLACK_SECRET = "xoxb-fuzz-bot-token-91c2";
const env = {
  FB_PROD_01_TOKEN: SECRET,
  FB_DR_01_TOKEN: SECRET,
  FB_LAB_01_TOKEN: SECRET,
  TOKEN: SECRET,
  SLACK_BOT_TOKEN: SLACK_SECRET,
  SLACK_SIGNING_SECRET: "fuzz-signing-secret-5521",
};
const EXAMPLE = readFileSync(new URL("../../config/example.yml", import.meta.url), "utf8");

/** Loads `text`; returns the outcome and fails the property on anything but a user-facing error. */
function load(text: string): "ok" | UserFacingError {
  try {
    parseConfigText(text, {
      source: "bot.yml",
      env,
      readFile: (p) => (p.endsWith(".token") ? SECRET : "-----BEGIN CERTIFICATE-----\n"),
      baseDir: "/etc/array-chatops",
    });
    return "ok";
  } catch (err) {
    if (err instanceof UserFacingError) {
      expect(err.message).not.toContain(SECRET);
      expect(err.message).not.toContain(SLACK_SECRET);
      expect(err.message).toMatch(/\S/);
      return err;
    }
    throw err;
  }
}

const KEYS = [
  "arrays",
  "name",
  "address",
  "api_token_env",
  "api_token_file",
  "ca_file",
  "insecure",
  "tags",
  "access",
  "default_role",
  "admin",
  "operator",
  "viewer",
  "users",
  "groups",
  "overrides",
  "channels",
  "default_array",
  "unbound",
  "bindings",
  "destructive",
  "expiry",
  "approvals_channel",
  "eradicate",
  "policy",
  "approvers",
  "audit_channel",
  "time_zone",
  "log_level",
  "store",
  "kind",
  "alerts",
  "poll_interval",
  "routes",
  "slack",
  "port",
  "__proto__",
  "constructor",
];

const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("https://a.example", "FB_PROD_01_TOKEN", "TOKEN", "15m", "all", "none", "tag:prod", "-1"),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const { doc } = fc.letrec((tie) => ({
  doc: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("doc"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("doc"), { maxKeys: 5 }),
  ),
}));

describe("config loader fuzz", () => {
  it("survives arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        load(text);
      }),
      { numRuns: 300 },
    );
  });

  it("survives random documents made of the real keys", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), doc, { maxKeys: 6 }), (obj) => {
        load(stringify(obj));
      }),
      { numRuns: 300 },
    );
  });

  it("survives the example with lines dropped, duplicated or their values replaced", () => {
    const lines = EXAMPLE.split("\n");
    expect(load(EXAMPLE)).toBe("ok");
    const edit = fc.record({
      at: fc.nat({ max: lines.length - 1 }),
      how: fc.constantFrom("drop", "dup", "value", "indent"),
      value: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("[", "{", "&a", "*a", "!!binary x", "'")),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const out = [...lines];
        for (const e of edits) {
          const line = out[e.at] ?? "";
          if (e.how === "drop") out.splice(e.at, 1);
          else if (e.how === "dup") out.splice(e.at, 0, line);
          else if (e.how === "indent") out[e.at] = ` ${line}`;
          else out[e.at] = line.includes(":") ? `${line.slice(0, line.indexOf(":"))}: ${e.value}` : e.value;
        }
        load(out.join("\n"));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses YAML bombs (alias expansion) with a user-facing error", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 9 }, (_, i) => {
        const p = i === 0 ? "a" : `b${i - 1}`;
        return `b${i}: &b${i} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`;
      }),
    ].join("\n");
    const outcome = load(bomb);
    expect(outcome).toBeInstanceOf(UserFacingError);
    expect(String(outcome instanceof UserFacingError ? outcome.message : "")).toMatch(/alias/i);
  });
});
