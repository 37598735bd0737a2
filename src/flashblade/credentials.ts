/**
 * How the bot proves who it is to an array, one kind per array (config `api_token_*` or `api_client`):
 * - api_token: `POST /api/login` with the `api-token` header; the session token comes back in `x-auth-token` and is
 *   ended by `POST /api/logout`.
 * - api_client: an RS256 JWT signed with the client's private key, exchanged at `/oauth2/1.0/token` for an access
 *   token sent as `Authorization: Bearer`, which lives `expires_in` seconds and is renewed before then (session.ts).
 * Neither the key, the assertion nor either token is ever put into a log line, an error or a message.
 */
import { randomUUID } from "node:crypto";
import type { ResolvedApiClient } from "../config/api-client.js";
import type { ResolvedArrayConfig } from "../config/arrays.js";
import type { Secret } from "../config/secret.js";
import { InternalError, UserFacingError } from "../errors.js";
import { JWT_TOKEN_TYPE, signRs256, TOKEN_EXCHANGE_GRANT, TOKEN_PATH } from "../rest-spec/oauth.js";
import { authFailed, describeErrors } from "./errors.js";
import { errorEntries } from "./response.js";
import { headerValue, type WireRequest, type WireResponse } from "./transport.js";

export type Send = (req: WireRequest) => Promise<WireResponse>;

/** What a login obtained: the token every call carries, and how long it lives when the array says. */
export interface Obtained {
  token: string;
  ttlMs?: number;
}

export interface Credential {
  readonly kind: "api_token" | "api_client";
  /** The token travels as `Authorization: Bearer` (else as `x-auth-token`). */
  readonly bearer: boolean;
  /** Logs in; a refusal is ARRAY_AUTH_FAILED naming the setting to check. */
  obtain(send: Send): Promise<Obtained>;
  /** Ends what obtain made on the array, when there is such a thing (a session). */
  end?(send: Send, token: string): Promise<number>;
}

/** A signed assertion lives this long: it is made afresh for every exchange, so a short life costs nothing. */
const ASSERTION_TTL_S = 300;

export function apiTokenCredential(array: string, apiToken: Secret): Credential {
  return {
    kind: "api_token",
    bearer: false,
    async obtain(send) {
      const res = await send({
        method: "POST",
        path: "/api/login",
        headers: { "api-token": apiToken.reveal() },
      });
      const token = headerValue(res.headers, "x-auth-token");
      if (res.status !== 200 || !token) {
        const entries = errorEntries(res.text);
        throw authFailed(array, res.status, entries.length > 0 ? describeErrors(entries) : undefined);
      }
      return { token };
    },
    async end(send, token) {
      return (await send({ method: "POST", path: "/api/logout", token })).status;
    },
  };
}

/** The token endpoint's own refusal: `{error, error_description}` (auth.md §3), else the usual error list. */
function tokenRefusal(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === "string") {
      const why = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
      return `${body.error}${why}`.slice(0, 300);
    }
  } catch {
    // Not JSON: the generic reading below quotes a snippet.
  }
  const entries = errorEntries(text);
  return entries.length > 0 ? describeErrors(entries) : undefined;
}

function clientRefused(array: string, client: ResolvedApiClient, status: number, said?: string) {
  return new UserFacingError(
    "ARRAY_AUTH_FAILED",
    `array ${array} refused the bot's API client ${client.id} (HTTP ${status}${said ? `: ${said}` : ""}). ` +
      "Check api_client in its configuration: the client must be enabled on the array, and key_id, issuer, " +
      "username and the private key must match what is registered there.",
    { details: { array, status } },
  );
}

export function apiClientCredential(array: string, client: ResolvedApiClient, now: () => number): Credential {
  return {
    kind: "api_client",
    bearer: true,
    async obtain(send) {
      const iat = Math.floor(now() / 1000);
      // Seconds, as RFC 7519 and Pure's own SDK send them (the spec's claim text says ms; docs/fidelity.md).
      const claims = {
        iss: client.issuer,
        aud: client.id,
        sub: client.username,
        iat,
        exp: iat + ASSERTION_TTL_S,
        jti: randomUUID(),
      };
      const assertion = signRs256({ kid: client.keyId }, claims, client.privateKey.reveal());
      const form = new URLSearchParams({
        grant_type: TOKEN_EXCHANGE_GRANT,
        subject_token_type: JWT_TOKEN_TYPE,
        subject_token: assertion,
      });
      const res = await send({
        method: "POST",
        path: TOKEN_PATH,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        rawBody: form.toString(),
      });
      if (res.status !== 200) throw clientRefused(array, client, res.status, tokenRefusal(res.text));
      let reply: { access_token?: unknown; expires_in?: unknown; items?: { access_token?: unknown }[] };
      try {
        reply = JSON.parse(res.text) as typeof reply;
      } catch {
        throw clientRefused(array, client, res.status, "the token endpoint answered no JSON");
      }
      // Pure's SDK also reads the token from items[0]: some releases wrap it so.
      const token = reply.access_token ?? reply.items?.[0]?.access_token;
      if (typeof token !== "string" || token === "")
        throw clientRefused(array, client, res.status, "the token endpoint answered no access_token");
      const expiresIn = typeof reply.expires_in === "number" ? reply.expires_in : undefined;
      return expiresIn === undefined || expiresIn <= 0 ? { token } : { token, ttlMs: expiresIn * 1000 };
    },
  };
}

/** The credential an array's configuration gives. */
export function credentialOf(cfg: ResolvedArrayConfig, now: () => number): Credential {
  if (cfg.apiClient) return apiClientCredential(cfg.name, cfg.apiClient, now);
  if (cfg.apiToken) return apiTokenCredential(cfg.name, cfg.apiToken);
  throw new InternalError("CONFIG_INVALID", `array ${cfg.name} has neither an API token nor an API client`);
}
