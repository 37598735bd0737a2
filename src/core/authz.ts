/**
 * Who may do what: Slack user IDs and user-group IDs map to roles, globally or per array / array tag. The most
 * specific scope that mentions the user wins (array name, then tag, then global); within a scope the highest
 * matching role counts. Unmapped users get `default_role` ("none" denies). Guests and deactivated accounts are
 * capped at viewer.
 */
import { clientRole, isAssistant, type McpClientConfig } from "../config/mcp.js";
import type { AccessConfig, Members } from "../config/schema.js";
import { UserFacingError } from "../errors.js";
import type { IdentityPort } from "./pipeline-types.js";
import { capRole, maxRole, ROLES, type Role, roleAtLeast } from "./roles.js";

export interface ArrayRef {
  name: string;
  tags: readonly string[];
}

type Bindings = Partial<Record<Role, Members>>;

interface Who {
  userId: string;
  groups: ReadonlySet<string>;
}

function matchRole(b: Bindings, who: Who): Role | undefined {
  let best: Role | undefined;
  for (const role of ROLES) {
    const m = b[role];
    if (!m) continue;
    if (m.users.includes(who.userId) || m.groups.some((g) => who.groups.has(g))) best = maxRole(best, role);
  }
  return best;
}

export interface AccessResolver {
  /** The user's role on one array, or undefined when they have none. */
  roleOn(userId: string, array: ArrayRef): Promise<Role | undefined>;
  /** The highest role the user holds on any of `arrays` (help listings, pool-wide commands). */
  bestRole(userId: string, arrays: readonly ArrayRef[]): Promise<Role | undefined>;
}

/**
 * `assistants`: the MCP clients (src/config/mcp.ts). An assistant's principal (`mcp:<name>`) has only the role its
 * client entry gives: never `default_role`, never a Slack group, and no identity lookup.
 */
export function createAccessResolver(
  access: AccessConfig,
  identity: IdentityPort,
  assistants: readonly McpClientConfig[] = [],
): AccessResolver {
  const assistantRole = (userId: string, array: ArrayRef): Role | undefined => {
    const c = assistants.find((a) => `mcp:${a.name}` === userId);
    return c ? clientRole(c, array.name) : undefined;
  };
  const who = async (userId: string): Promise<Who & { restricted: boolean }> => {
    const [groups, restricted] = await Promise.all([
      identity.groupsOf(userId),
      identity.isRestricted(userId),
    ]);
    return { userId, groups: new Set(groups), restricted };
  };
  const resolve = (w: Who & { restricted: boolean }, array: ArrayRef): Role | undefined => {
    const byName = access.overrides.filter((o) => o.arrays?.includes(array.name));
    const byTag = access.overrides.filter((o) => o.tags?.some((t) => array.tags.includes(t)));
    let role: Role | undefined;
    for (const scope of [byName, byTag, [access]]) {
      for (const b of scope) role = maxRole(role, matchRole(b, w));
      if (role !== undefined) break;
    }
    role ??= access.default_role === "viewer" ? "viewer" : undefined;
    return w.restricted ? capRole(role, "viewer") : role;
  };
  return {
    async roleOn(userId, array) {
      if (isAssistant(userId)) return assistantRole(userId, array);
      return resolve(await who(userId), array);
    },
    async bestRole(userId, arrays) {
      let best: Role | undefined;
      if (isAssistant(userId)) {
        for (const a of arrays) best = maxRole(best, assistantRole(userId, a));
        return best;
      }
      const w = await who(userId);
      for (const a of arrays) best = maxRole(best, resolve(w, a));
      return best;
    },
  };
}

/** The error for a role check that failed: names what is needed, where, and what the user has. */
export function forbidden(what: string, need: Role, have: Role | undefined, array?: string): UserFacingError {
  const where = array ? ` on array ${array}` : "";
  const there = array ? " there" : "";
  const yours =
    have === undefined
      ? `you have no role${there}. Ask an admin to map your Slack user or one of your user groups to a role in the bot's access configuration.`
      : `you are ${article(have)} ${have}${there}.`;
  return new UserFacingError("FORBIDDEN", `${what} needs the ${need} role${where}; ${yours}`, {
    details: { need, have: have ?? "none", array },
  });
}

function article(role: Role): string {
  return role === "admin" || role === "operator" ? "an" : "a";
}

export function assertRole(what: string, need: Role, have: Role | undefined, array?: string): void {
  if (!roleAtLeast(have, need)) throw forbidden(what, need, have, array);
}
