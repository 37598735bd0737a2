/**
 * The array's OAuth2 side: `POST /oauth2/1.0/token` exchanges a JWT signed by a registered, enabled API client
 * (resources/api-clients.ts) for an access token, which the versioned API then takes as `Authorization: Bearer`.
 * The access token is itself a JWT (Pure's SDK counts a token without an `exp` claim as expired and asks again),
 * signed with a key only this simulated array holds, and lives for the client's `access_token_ttl_in_ms`.
 * Refusals use the token endpoint's own shape, `{error, error_description}` with 400 or 401 (auth.md §3).
 */
import { createHmac, createPublicKey, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import {
  ACCESS_TOKEN_TYPE,
  claimMs,
  decodeJwt,
  JWT_TOKEN_TYPE,
  TOKEN_EXCHANGE_GRANT,
  type TokenReply,
  verifyRs256,
} from "../rest-spec/oauth.js";
import type { ApiResponse } from "./api-response.js";
import type { Json } from "./models/body.js";
import type { SimState } from "./state.js";

/** Clock skew tolerated on an assertion's `iat`, as identity providers commonly allow. */
const SKEW_MS = 5 * 60_000;
const DEFAULT_TTL_MS = 86_400_000;

export interface OAuthDeps {
  state: SimState;
  clock: () => number;
  /** Whether `name` is a user of this array (an assertion's `sub`). */
  isUser(name: string): boolean;
}

function refusal(status: 400 | 401, error: string, description: string): ApiResponse {
  return { status, body: { error, error_description: description } };
}

function clients(state: SimState): Json[] {
  return [...(state.generic.get("/api-clients")?.items.values() ?? [])];
}

/** The array's side of token exchange and of the Bearer tokens it issues. */
export class OAuthIssuer {
  readonly #secret = randomBytes(32);
  readonly #deps: OAuthDeps;

  constructor(deps: OAuthDeps) {
    this.#deps = deps;
  }

  /** `POST /oauth2/1.0/token` with a form body. */
  exchange(method: string, contentType: string | undefined, body: string): ApiResponse {
    if (method !== "POST") {
      return { ...refusal(400, "invalid_request", "Use POST."), headers: { allow: "POST" } };
    }
    if (!(contentType ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded"))
      return refusal(400, "invalid_request", "Send the form as application/x-www-form-urlencoded.");
    const form = new URLSearchParams(body);
    const grant = form.get("grant_type");
    if (grant !== TOKEN_EXCHANGE_GRANT)
      return refusal(400, "unsupported_grant_type", `grant_type must be ${TOKEN_EXCHANGE_GRANT}.`);
    if (form.get("subject_token_type") !== JWT_TOKEN_TYPE)
      return refusal(400, "invalid_request", `subject_token_type must be ${JWT_TOKEN_TYPE}.`);
    const token = form.get("subject_token");
    if (!token) return refusal(400, "invalid_request", "subject_token is required.");
    const jwt = decodeJwt(token);
    if (jwt === undefined) return refusal(400, "invalid_request", "subject_token is not a JWT.");
    const { claims } = jwt;
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const client = clients(this.#deps.state).find((c) => aud.includes(String(c["id"])));
    if (client === undefined)
      return refusal(401, "invalid_client", "No API client has the id given in 'aud'.");
    const name = String(client["name"]);
    if (client["enabled"] !== true)
      return refusal(401, "invalid_client", `API client '${name}' is disabled; enable it first.`);
    if (jwt.header["kid"] !== client["key_id"])
      return refusal(401, "invalid_client", `'kid' is not the key_id of API client '${name}'.`);
    let key: ReturnType<typeof createPublicKey>;
    try {
      key = createPublicKey(String(client["public_key"]));
    } catch {
      return refusal(401, "invalid_client", `API client '${name}' has no usable public key.`);
    }
    if (!verifyRs256(jwt, key))
      return refusal(401, "invalid_grant", "The signature does not verify with the client's public key.");
    if (claims.iss !== client["issuer"])
      return refusal(401, "invalid_grant", `'iss' is not the issuer of API client '${name}'.`);
    const now = this.#deps.clock();
    const exp = claimMs(claims.exp);
    const iat = claimMs(claims.iat);
    if (exp === undefined || exp <= now) return refusal(401, "invalid_grant", "The assertion has expired.");
    if (iat !== undefined && iat > now + SKEW_MS)
      return refusal(401, "invalid_grant", "The assertion is issued in the future ('iat').");
    if (typeof claims.sub !== "string" || !this.#deps.isUser(claims.sub))
      return refusal(401, "invalid_grant", "'sub' names no user of this array.");
    const ttlMs = Number(client["access_token_ttl_in_ms"] ?? DEFAULT_TTL_MS);
    const reply: TokenReply = {
      access_token: this.#issue(claims.sub, String(client["id"]), now, ttlMs),
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: "Bearer",
      expires_in: Math.floor(ttlMs / 1000),
    };
    return { status: 200, body: reply };
  }

  #issue(user: string, clientId: string, now: number, ttlMs: number): string {
    const head = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
    const claims = {
      iss: this.#deps.state.array.name,
      sub: user,
      aud: clientId,
      iat: Math.floor(now / 1000),
      exp: Math.floor((now + ttlMs) / 1000),
      jti: randomUUID(),
    };
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${head}.${body}.${this.#mac(`${head}.${body}`).toString("base64url")}`;
  }

  #mac(signed: string): Buffer {
    return createHmac("sha256", this.#secret).update(signed).digest();
  }

  /**
   * The user an `Authorization: Bearer` header acts for; undefined when the token is not one this array issued,
   * has expired, or its client has since been disabled or deleted.
   */
  user(authorization: string | undefined): string | undefined {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    const jwt = m?.[1] === undefined ? undefined : decodeJwt(m[1]);
    if (jwt === undefined) return undefined;
    const expected = this.#mac(jwt.signed);
    if (jwt.signature.length !== expected.length || !timingSafeEqual(jwt.signature, expected))
      return undefined;
    const exp = claimMs(jwt.claims.exp);
    if (exp === undefined || exp <= this.#deps.clock()) return undefined;
    const client = clients(this.#deps.state).find((c) => c["id"] === jwt.claims.aud);
    if (client?.["enabled"] !== true) return undefined;
    return typeof jwt.claims.sub === "string" ? jwt.claims.sub : undefined;
  }
}
