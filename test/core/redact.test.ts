import { describe, expect, test } from "vitest";
import { REDACTED, redactCommandLine, redactMessage } from "../../src/core/presentation/redact.js";
import { createLogger } from "../../src/logger.js";
import { findSecretKey, redact, redactUrlCredentials, redactUrlValue } from "../../src/redact.js";
import { MODELS } from "../../src/rest-spec/models.js";
import {
  isSecretKey,
  isUrlKey,
  NOT_SECRET_MODEL_FIELDS,
  SECRET_MODEL_FIELDS,
  URL_MODEL_FIELDS,
} from "../../src/rest-spec/secrets.js";

const FIELD_NAMES = new Set(Object.values(MODELS).flatMap((m) => Object.keys(m.fields)));

describe("the secret fields come from the models", () => {
  test("every model field that names a secret, a key, a token or a credential is decided, one way or the other", () => {
    const decided = new Set<string>([...SECRET_MODEL_FIELDS, ...NOT_SECRET_MODEL_FIELDS]);
    const undecided = [...FIELD_NAMES].filter(
      (f) => /pass|secret|token|_key$|^key|community|credential|private/.test(f) && !decided.has(f),
    );
    // References name an object, never hold its secret (remote_credentials is {name, id}); key_size is a number.
    expect(undecided.filter((f) => !/^(remote_credentials|access_keys|key_size)$/.test(f))).toEqual([]);
  });

  test("every listed secret and URL field exists in some model, and the lists hold what they say", () => {
    for (const f of SECRET_MODEL_FIELDS) {
      expect({ f, known: FIELD_NAMES.has(f) }).toEqual({ f, known: true });
      expect(isSecretKey(f)).toBe(true);
    }
    for (const f of NOT_SECRET_MODEL_FIELDS)
      expect({ f, secret: isSecretKey(f) }).toEqual({ f, secret: false });
    for (const f of URL_MODEL_FIELDS.filter((x) => x !== "url")) expect(FIELD_NAMES.has(f)).toBe(true);
  });

  test("keys match whatever their case or spelling", () => {
    for (const k of [
      "BIND_PASSWORD",
      "bind-password",
      "bindPassword",
      "Secret_Access_Key",
      "X-Auth-Token",
      "api-token",
    ])
      expect({ k, secret: isSecretKey(k) }).toEqual({ k, secret: true });
    for (const k of ["name", "continuation_token", "bind_user", "public_key", "token_ttl"])
      expect({ k, secret: isSecretKey(k) }).toEqual({ k, secret: false });
    expect(isUrlKey("PROXY")).toBe(true);
  });
});

describe("redact", () => {
  test("values under secret keys go at any depth and in any case; everything else stays", () => {
    expect(
      redact({
        host: "h",
        v2c: { community: "c1", user: "u" },
        BIND_PASSWORD: "s",
        items: [{ name: "a", api_token: { created: 1, expires: null, token: "T" } }],
        password: { nested: "p" },
        access_token_ttl_in_ms: 5,
        continuation_token: "page2",
      }),
    ).toEqual({
      host: "h",
      v2c: { community: REDACTED, user: "u" },
      BIND_PASSWORD: REDACTED,
      items: [{ name: "a", api_token: { created: 1, expires: null, token: REDACTED } }],
      password: { nested: REDACTED },
      access_token_ttl_in_ms: 5,
      continuation_token: "page2",
    });
  });

  test("URL credentials show as user:***@host; a URL field without a scheme too", () => {
    expect(redact({ proxy: "http://user:pw@proxy:3128" })).toEqual({ proxy: "http://user:***@proxy:3128" });
    expect(redact({ proxy: "user:pw@proxy:3128" })).toEqual({ proxy: "user:***@proxy:3128" });
    expect(redact({ uris: ["ldaps://cn=admin:pw@ad1", "ldaps://ad2"] })).toEqual({
      uris: ["ldaps://cn=admin:***@ad1", "ldaps://ad2"],
    });
    expect(redactUrlCredentials("see https://tok@git.example.com/x and http://a:b@h")).toBe(
      "see https://***@git.example.com/x and http://a:***@h",
    );
    expect(redactUrlValue("proxy.example.com:3128")).toBe("proxy.example.com:3128");
  });

  test("cycles and non-plain objects do not break it", () => {
    const a: Record<string, unknown> = { password: "p" };
    a["self"] = a;
    const out = redact(a);
    expect(out["password"]).toBe(REDACTED);
    expect(out["self"]).toBe(REDACTED);
    const err = new Error("x");
    expect(redact({ err }).err).toBe(err);
  });

  test("findSecretKey finds a secret key nested in objects and lists", () => {
    expect(findSecretKey({ a: [{ b: { Private_Key: "k" } }] })).toBe("a[0].b.Private_Key");
    expect(findSecretKey({ bind_user: "x" })).toBeUndefined();
  });
});

describe("redactCommandLine", () => {
  test("JSON typed into a line is parsed and loses its secrets, whatever their case or escape", () => {
    expect(
      redactCommandLine(
        `api PATCH /directory-services?names=management '{"bind_user":"x","BIND_PASSWORD":"s3cr3t"}'`,
      ),
    ).toBe(
      `api PATCH /directory-services?names=management '{"bind_user":"x","BIND_PASSWORD":"${REDACTED}"}'`,
    );
    const escaped = redactCommandLine(`api PATCH /directory-services '{"bind\\u005fpassword":"s3cr3t"}'`);
    expect(escaped).not.toContain("s3cr3t");
    expect(escaped).toContain(REDACTED);
  });

  test("a value typed after a secret's flag goes; URLs lose their credentials; other options stay", () => {
    expect(redactCommandLine("directory update management --bind-password hunter2 --uris ldaps://l1")).toBe(
      `directory update management --bind-password ${REDACTED} --uris ldaps://l1`,
    );
    expect(redactCommandLine("snmp manager create t1 --V2C-COMMUNITY='pub lic' --host h")).toBe(
      `snmp manager create t1 --V2C-COMMUNITY=${REDACTED} --host h`,
    );
    expect(redactCommandLine("ad create ad1 --password --user joiner")).toBe(
      "ad create ad1 --password --user joiner",
    );
    expect(redactCommandLine("support set --proxy http://user:pw@proxy:3128")).toBe(
      "support set --proxy http://user:***@proxy:3128",
    );
    expect(redactCommandLine("api GET /login?API-TOKEN=abc&x=1")).toBe(
      `api GET /login?API-TOKEN=${REDACTED}&x=1`,
    );
  });

  test("a line asked again redacts the same: a clean line comes back as typed, a secret never sticks", () => {
    const clean = "fs list --name 'home dirs'";
    expect(redactCommandLine(clean)).toBe(clean);
    expect(redactCommandLine(clean)).toBe(clean);
    const secret = `${clean} --bind-password hunter2`;
    for (let i = 0; i < 2; i++)
      expect(redactCommandLine(secret)).toBe(`${clean} --bind-password ${REDACTED}`);
    // Not the same line once respaced or requoted: each is split and redacted as typed.
    expect(redactCommandLine('fs  list   --name "home dirs"')).toBe(clean);
    expect(redactCommandLine('fs  list   --name "home dirs"')).toBe(clean);
    expect(redactCommandLine("support set --proxy http://u:pw@p:1")).toBe(
      "support set --proxy http://u:***@p:1",
    );
    expect(redactCommandLine("support set --proxy http://u:pw@p:1")).toBe(
      "support set --proxy http://u:***@p:1",
    );
  });

  test("a line that does not split keeps only what comes before its first quote", () => {
    expect(redactCommandLine(`api PATCH /admins '{"password":"p"`)).toBe(`api PATCH /admins ${REDACTED}`);
  });
});

describe("redactMessage", () => {
  test("texts, cells and text attachments lose URL credentials; secret columns their values", () => {
    const m = redactMessage({
      text: "proxy http://u:p@h",
      blocks: [
        { type: "code", text: '{"proxy":"http://u:p@h"}' },
        { type: "table", columns: [], rows: [{ name: "a", "v2c.community": "pub", note: "–" }] },
      ],
      attachments: [{ filename: "a.csv", title: "a", contentType: "text/csv", content: "http://u:p@h" }],
    });
    expect(JSON.stringify(m)).not.toContain("u:p@");
    expect(m.blocks[1]).toMatchObject({ rows: [{ name: "a", "v2c.community": REDACTED, note: "–" }] });
  });
});

describe("log lines", () => {
  test("logged objects, child bindings and errors lose their secrets whatever the key's case or depth", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (s: string) => void lines.push(s) } });
    const err = Object.assign(new Error("failed at http://u:Err-pw-1@host"), {
      body: { Secret_Access_Key: "Err-k-2" },
    });
    logger
      .child({ request: { headers: { "X-Auth-Token": "Sess-3" } } })
      .info({ body: { BIND_PASSWORD: "Bind-4", uris: ["ldap://cn:Uri-pw-5@ad"] }, err }, "sent");
    const text = lines.join("");
    for (const s of ["Err-pw-1", "Err-k-2", "Sess-3", "Bind-4", "Uri-pw-5"]) expect(text).not.toContain(s);
    expect(text).toContain("ldap://cn:***@ad");
    expect(text).toContain('"BIND_PASSWORD":"[redacted]"');
  });

  test("OAuth2: the access token, the assertion and the form field carrying it go from a log line", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (s: string) => void lines.push(s) } });
    logger.info(
      {
        reply: { access_token: "Acc-6", token_type: "Bearer", expires_in: 3600 },
        form: { grant_type: "token-exchange", subject_token: "Subj-7" },
        claims: { Id_Token: "Id-8", assertion: "Ass-9" },
        client: { access_token_ttl_in_ms: 3_600_000, key_id: "k-1" },
      },
      "exchanged",
    );
    const text = lines.join("");
    for (const s of ["Acc-6", "Subj-7", "Id-8", "Ass-9"]) expect(text).not.toContain(s);
    expect(text).toContain('"access_token_ttl_in_ms":3600000');
    expect(text).toContain('"key_id":"k-1"');
    expect(text).toContain('"expires_in":3600');
  });
});
