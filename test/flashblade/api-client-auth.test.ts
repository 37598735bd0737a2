/**
 * Logging in as an OAuth2 API client, through the real client and the simulator over HTTPS: the connection signs
 * an assertion, exchanges it, sends the access token as Bearer, renews it before it expires (by the injected clock),
 * logs in again once on a refusal, and says plainly when the array refuses the client. The key, the assertion and
 * the token never reach a log line, an error or health.
 */
import { generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ResolvedArrayConfig } from "../../src/config/arrays.js";
import { Secret } from "../../src/config/secret.js";
import type { Simulator } from "../../src/simulator/index.js";
import { clientFor, manualClock } from "../simulator/server-helpers.js";
import { arrayConfig } from "./helpers.js";
import { API_TOKEN, logSink, poolOf, startSim } from "./sim.js";

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM_LINE = String(keys.privateKey.export({ type: "pkcs8", format: "pem" })).split("\n")[1] as string;
/** A compact JWT: base64url of `{"`, then two more parts. */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;
const TOKEN_PATH = "POST /oauth2/1.0/token";

let clock: ReturnType<typeof manualClock>;
let sim: Simulator;
let registered: { id: string; key_id: string };

async function register(name: string, ttlMs: number): Promise<{ id: string; key_id: string }> {
  const admin = clientFor(sim);
  const session = await admin.login(API_TOKEN);
  const headers = { "x-auth-token": session, "content-type": "application/json" };
  // The newest version the simulator serves, whichever generation the suite runs it as.
  const { versions } = (await admin.call("GET", "/api/api_version")).json() as { versions: string[] };
  const at = versions.at(-1);
  const made = await admin.call("POST", `/api/${at}/api-clients?names=${name}`, {
    headers,
    body: JSON.stringify({
      max_role: { name: "array_admin" },
      issuer: "array-chatops",
      public_key: keys.publicKey.export({ type: "spki", format: "pem" }),
      access_token_ttl_in_ms: ttlMs,
    }),
  });
  const [client] = (made.json() as { items: { id: string; key_id: string }[] }).items;
  await admin.call("PATCH", `/api/${at}/api-clients?names=${name}`, {
    headers,
    body: JSON.stringify({ enabled: true }),
  });
  await admin.agent.close();
  return client as { id: string; key_id: string };
}

function clientConfig(over: Partial<ResolvedArrayConfig["apiClient"]> = {}): ResolvedArrayConfig {
  const cfg = arrayConfig({ name: "fb-oauth", origin: sim.url, ca: sim.ca, tokenSetting: "api_client" });
  delete cfg.apiToken;
  return {
    ...cfg,
    apiClient: {
      id: registered.id,
      keyId: registered.key_id,
      issuer: "array-chatops",
      username: "pureuser",
      privateKey: new Secret(keys.privateKey),
      ...over,
    },
  };
}

function exchanges(): number {
  return sim.control.stats().requests[TOKEN_PATH] ?? 0;
}

beforeAll(async () => {
  clock = manualClock(1_800_000_000_000);
  sim = await startSim({ clock: clock.now, arrayName: "fb-oauth" });
  registered = await register("chatops", 60_000);
});

describe("API client login", () => {
  it("exchanges once, sends Bearer, renews before expiry and shows the kind in health", async () => {
    const pool = poolOf([clientConfig()], { now: clock.now });
    const client = pool.list()[0]!;
    const before = exchanges();
    await Promise.all(Array.from({ length: 20 }, () => client.get("/arrays")));
    expect(exchanges() - before).toBe(1);
    expect(sim.control.stats().logins).toBe(1); // the admin's, in register(): the bot made no session

    // 60 s tokens are renewed 6 s ahead: at 55 s the next call exchanges first, and no call is refused.
    clock.advance(55_000);
    await client.get("/arrays");
    expect(exchanges() - before).toBe(2);
    const outcomes = sim.control.stats().recent.map((r) => r.outcome);
    expect(outcomes.filter((o) => o !== 200 && o !== undefined)).toEqual([]);

    const health = pool.health()[0];
    expect(health).toMatchObject({ auth: "api_client", status: "up" });
    expect(JSON.stringify(pool.health())).not.toMatch(JWT);
  });

  it("exchanges again once when a call is refused with 401, then succeeds", async () => {
    const pool = poolOf([clientConfig()], { now: clock.now });
    const client = pool.list()[0]!;
    await client.get("/arrays");
    const before = exchanges();
    sim.control.failRequests({ path: "/arrays", method: "GET", status: 401, count: 1 });
    const page = await client.get("/arrays");
    expect(page.items).toHaveLength(1);
    expect(exchanges() - before).toBe(1);
  });

  it("names the API client setting when the array refuses the client", async () => {
    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const pool = poolOf([clientConfig({ privateKey: new Secret(stranger) })], { now: clock.now });
    const client = pool.list()[0]!;
    const err = await client.get("/arrays").catch((e: unknown) => e as Error & { code: string });
    expect(err).toMatchObject({ code: "ARRAY_AUTH_FAILED" });
    expect((err as Error).message).toContain("refused the bot's API client");
    expect((err as Error).message).toContain("invalid_grant");
    expect((err as Error).message).not.toMatch(JWT);
    expect(pool.health()[0]).toMatchObject({ status: "refused", refused: { setting: "api_client" } });
  });

  it("writes neither the private key, the assertion nor the access token to the log", async () => {
    const pool = poolOf([clientConfig()], { now: clock.now });
    await pool.list()[0]!.get("/arrays");
    const lines = logSink.lines.join("\n");
    expect(lines).toContain("logged in to array");
    expect(lines).not.toContain(PEM_LINE);
    expect(lines).not.toMatch(JWT);
  });
});
