/**
 * The access policy (src/rest-spec/policy.ts) enforced where every request passes: the array clients a command
 * is handed (`ctx.array`, and every client reached through `ctx.pool`) are intercepted (src/flashblade/
 * interceptor.ts) with this policy as a hook, for the acting person's role on that array, so any request a
 * command, the raw `api` call, a button or a future face sends is checked against the one table before it
 * leaves, not by care in each command. A refused request sends nothing.
 */
import { UserFacingError } from "../../errors.js";
import { InterceptedClient, type RequestHooks } from "../../flashblade/interceptor.js";
import type { ArrayClient, PlannedCall } from "../../flashblade/types.js";
import type { HttpMethod } from "../../rest-spec/endpoints.js";
import { policyAllows, requestRule } from "../../rest-spec/policy.js";
import { forbidden } from "../access/authz.js";
import type { Role } from "../access/roles.js";

/** The actor's role on one array (undefined: none there). */
export type RoleOn = (array: ArrayClient) => Promise<Role | undefined>;

/** Throws unless `role` may send this request on `array` by the policy table. */
export function assertRequestAllowed(
  method: HttpMethod,
  path: string,
  query: Readonly<Record<string, unknown>> | undefined,
  role: Role | undefined,
  array: string,
): void {
  const verdict = requestRule(method, path, query ?? {});
  if (!verdict) {
    throw new UserFacingError(
      "REQUEST_NOT_IN_POLICY",
      `${method} ${path} is not in the interface table, so nothing was sent to ${array}.`,
    );
  }
  if (verdict.role === "refuse") {
    throw new UserFacingError(
      "FORBIDDEN",
      `${method} ${path} with ${verdict.reason ?? "these parameters"}: the bot never sends it. Nothing was sent.`,
      { details: { need: "refused", have: role ?? "none", array } },
    );
  }
  if (!policyAllows(role, verdict.role)) {
    const why = verdict.reason ? ` (${verdict.reason})` : "";
    throw forbidden(`${method} ${path}${why}`, verdict.role, role, array);
  }
}

/**
 * Every planned request of an impact, checked before the card is shown. One meant for another array (`on`) is
 * checked here against the role on this one and again, for the role there, by that array's guarded client when
 * sent.
 */
export function assertPlannedAllowed(
  requests: readonly (PlannedCall & { on?: string })[],
  role: Role | undefined,
  array: string,
): void {
  for (const r of requests) assertRequestAllowed(r.method, r.path, r.query, role, r.on ?? array);
}

/** The access policy as the interceptor's hook, for the actor whose role on each array `roleOn` tells. */
export function policyHook(roleOn: RoleOn): NonNullable<RequestHooks["policy"]> {
  return async (array, method, path, query) =>
    assertRequestAllowed(method, path, query, await roleOn(array), array.name);
}

/** `client` as seen by someone whose role on it `roleOn` tells: every request checked before it is sent. */
export function guardClient(client: ArrayClient, roleOn: RoleOn): ArrayClient {
  return new InterceptedClient(client, { policy: policyHook(roleOn) });
}
