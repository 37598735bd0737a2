/**
 * OAuth2 token exchange with an API client (REST 2.x facts, auth.md §3): the one description of the wire that the
 * client (src/flashblade/api-client-auth.ts) and the simulator (src/simulator/oauth.ts) both read. A JWT signed with
 * the client's private key (RS256, `kid` = the client's `key_id`; `aud` = its `id`, `iss` = its `issuer`, `sub` = the
 * array user) is exchanged at TOKEN_PATH for an access token sent as `Authorization: Bearer`.
 */
import { type KeyObject, sign, verify } from "node:crypto";

/** Not versioned: the same path beside every REST version. */
export const TOKEN_PATH = "/oauth2/1.0/token";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const JWT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

/** The 200 answer of the token endpoint; `expires_in` is in seconds (the spec says so, unlike its ms TTLs). */
export interface TokenReply {
  access_token: string;
  issued_token_type: string;
  token_type: string;
  expires_in: number;
}

export interface JwtClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  iat?: number;
  exp?: number;
  [claim: string]: unknown;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: JwtClaims;
  /** `header.payload`, the bytes the signature covers. */
  signed: string;
  signature: Buffer;
}

function part(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** An RS256 JWT (RSASSA-PKCS1-v1_5 with SHA-256, node:crypto's default padding for an RSA key). */
export function signRs256(header: Record<string, unknown>, claims: JwtClaims, key: KeyObject): string {
  const signed = `${part({ ...header, alg: "RS256", typ: "JWT" })}.${part(claims)}`;
  return `${signed}.${sign("sha256", Buffer.from(signed), key).toString("base64url")}`;
}

export function verifyRs256(jwt: DecodedJwt, key: KeyObject): boolean {
  if (jwt.header["alg"] !== "RS256") return false;
  try {
    return verify("sha256", Buffer.from(jwt.signed), key, jwt.signature);
  } catch {
    return false;
  }
}

function objectOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The parts of a compact JWT, unverified; undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  const header = objectOf(h);
  const claims = objectOf(p);
  if (header === undefined || claims === undefined) return undefined;
  return { header, claims: claims as JwtClaims, signed: `${h}.${p}`, signature: Buffer.from(s, "base64url") };
}

/**
 * A NumericDate claim in milliseconds. RFC 7519 and Pure's SDK send seconds; the spec's claim text says
 * milliseconds: a value too large to be seconds in this millennium is taken as milliseconds.
 */
export function claimMs(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  return value > 1e11 ? value : value * 1000;
}
