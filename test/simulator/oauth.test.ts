/**
 * OAuth2 API clients on the simulator, over HTTPS: a client registered through /api-clients is disabled until
 * enabled, the token endpoint exchanges a JWT its key signed for an access token, and the API takes that token as
 * `Authorization: Bearer` until it expires or the client is disabled. Every refusal names why.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, type JwtClaims, signRs256 } from "../../src/rest-spec/oauth.js";
import { manualClock, openSim, type SimClient } from "./server-helpers.js";

const clock = manualClock(1_800_000_000_000);
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 });
const GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_TYPE = "urn:ietf:params:oauth:token-type:jwt";

let c: SimClient;
let session: string;
let client: { id: string; key_id: string; enabled: boolean; max_role: { name: string }; issuer: string };

async function api(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  version = "2.28",
) {
  return c.call(method, `/api/${version}${path}`, {
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function assertion(over: { claims?: JwtClaims; kid?: string; key?: KeyObject } = {}): string {
  const now = Math.floor(clock.now() / 1000);
  const claims = {
    iss: "chatops",
    aud: client.id,
    sub: "pureuser",
    iat: now,
    exp: now + 300,
    ...over.claims,
  };
  return signRs256({ kid: over.kid ?? client.key_id }, claims, over.key ?? keys.privateKey);
}

async function exchange(subject: string, form: Record<string, string> = {}) {
  const body = new URLSearchParams({
    grant_type: GRANT,
    subject_token_type: JWT_TYPE,
    subject_token: subject,
    ...form,
  });
  const r = await c.call("POST", "/oauth2/1.0/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  return { status: r.status, body: r.json() as Record<string, unknown> };
}

beforeAll(async () => {
  // Both generations, as a current array: API clients are a 2.x resource (and 1.12's), Bearer works on both.
  c = await openSim({
    scenario: "demo",
    arrayName: "fb-lab-01",
    clock: clock.now,
    versions: "1.0-1.12,2.0-2.28",
  });
  session = await c.login();
  const made = await api(
    "POST",
    "/api-clients?names=chatops",
    { "x-auth-token": session },
    {
      max_role: { name: "storage_admin" },
      issuer: "chatops",
      public_key: keys.publicKey.export({ type: "spki", format: "pem" }),
      access_token_ttl_in_ms: 3_600_000,
    },
  );
  expect(made.status).toBe(200);
  [client] = (made.json() as { items: (typeof client)[] }).items as [typeof client];
});

afterAll(() => c.close());

describe("OAuth2 API clients", () => {
  it("registers a client disabled, with an id and a key_id, and refuses its tokens until enabled", async () => {
    expect(client).toMatchObject({ enabled: false, max_role: { name: "storage_admin" }, issuer: "chatops" });
    expect(client.id).toBeTruthy();
    expect(client.key_id).toBeTruthy();
    const refused = await exchange(assertion());
    expect(refused).toEqual({
      status: 401,
      body: {
        error: "invalid_client",
        error_description: "API client 'chatops' is disabled; enable it first.",
      },
    });
    const enabled = await api(
      "PATCH",
      "/api-clients?names=chatops",
      { "x-auth-token": session },
      { enabled: true },
    );
    expect(enabled.status).toBe(200);
  });

  it("exchanges a signed assertion for a Bearer access token with exp that the API accepts", async () => {
    const { status, body } = await exchange(assertion());
    expect(status).toBe(200);
    expect(body).toMatchObject({
      token_type: "Bearer",
      issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
      expires_in: 3600,
    });
    const token = String(body["access_token"]);
    const claims = decodeJwt(token)?.claims;
    expect(claims?.exp).toBe(Math.floor(clock.now() / 1000) + 3600);
    expect(claims?.sub).toBe("pureuser");
    for (const version of ["2.28", "2.0", "1.12"]) {
      const arrays = await api("GET", "/arrays", { authorization: `Bearer ${token}` }, undefined, version);
      expect(arrays.status, version).toBe(200);
      expect((arrays.json() as { items: { name: string }[] }).items[0]?.name).toBe("fb-lab-01");
    }

    clock.advance(3_600_000);
    const late = await api("GET", "/arrays", { authorization: `Bearer ${token}` });
    expect(late.status).toBe(403);
    expect(late.text).toContain("Authorization: Bearer");
  });

  it("refuses a wrong key, key id, issuer, audience, user, an expired assertion and other grants", async () => {
    const now = Math.floor(clock.now() / 1000);
    const cases: [string, string, Record<string, string>?][] = [
      [assertion({ key: stranger.privateKey }), "invalid_grant"],
      [assertion({ kid: "not-the-key-id" }), "invalid_client"],
      [assertion({ claims: { iss: "someone-else" } }), "invalid_grant"],
      [assertion({ claims: { aud: "no-such-client" } }), "invalid_client"],
      [assertion({ claims: { sub: "nobody" } }), "invalid_grant"],
      [assertion({ claims: { iat: now - 600, exp: now - 1 } }), "invalid_grant"],
      ["not-a-jwt", "invalid_request"],
      [assertion(), "unsupported_grant_type", { grant_type: "client_credentials" }],
    ];
    for (const [subject, error, form] of cases) {
      const { status, body } = await exchange(subject, form);
      expect([status, body["error"]], String(body["error_description"])).toEqual([
        error.startsWith("invalid_c") || error === "invalid_grant" ? 401 : 400,
        error,
      ]);
      expect(body["error_description"]).toBeTypeOf("string");
    }
  });

  it("accepts an assertion dated in milliseconds, as the spec's claim text has it", async () => {
    const ms = clock.now();
    const { status } = await exchange(assertion({ claims: { iat: ms, exp: ms + 300_000 } }));
    expect(status).toBe(200);
  });

  it("stops honouring a client's access tokens once the client is disabled", async () => {
    const token = String((await exchange(assertion())).body["access_token"]);
    expect((await api("GET", "/arrays", { authorization: `Bearer ${token}` })).status).toBe(200);
    // The same access token may change the client (the bot's user is an admin): disable it with itself.
    const off = await api(
      "PATCH",
      "/api-clients?names=chatops",
      { authorization: `Bearer ${token}` },
      {
        enabled: false,
      },
    );
    expect(off.status).toBe(200);
    expect((await api("GET", "/arrays", { authorization: `Bearer ${token}` })).status).toBe(403);
  });
});
