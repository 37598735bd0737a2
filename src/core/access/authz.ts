/**
 * Who may do what: Slack user IDs and user-group IDs map to roles, globally or per array / array tag. The most
 * specific scope that mentions the user wins (array name, then tag, then global); within a scope the highest
 * matching role counts. Unmapped users get `default_role` ("none" denies). Guests and deactivated accounts are
 * capped at viewer.
 */
import { clientRole, type McpClientConfig } from "../../config/mcp.js";
import type { AccessConfig, Members } from "../../config/schema.js";
import { stepRole, type WorkflowStepsConfig } from "../../config/workflows.js";
import { UserFacingError } from "../../errors.js";
import type { IdentityPort } from "../context/pipeline-types.js";
import { ASSISTANT_PREFIX, kindOfPrincipal, parseWorkflowId } from "./actors.js";
import { arraysMatch } from "./change-rules.js";
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
  /** The access grant a person's role on the array comes from, when a grant raises it above their mapping. */
  grantBehind?(userId: string, array: ArrayRef): Promise<string | undefined>;
  /** The highest role the user holds on any of `arrays` (help listings, pool-wide commands). */
  bestRole(userId: string, arrays: readonly ArrayRef[]): Promise<Role | undefined>;
}

/** The principals that are not people, each with the role its own configuration entry gives. */
export interface Principals {
  /** The MCP clients (src/config/mcp.ts): `mcp:<name>`. */
  assistants?: readonly McpClientConfig[];
  /** The Workflow Builder steps (src/config/workflows.ts): `workflow:<step>`. */
  workflowSteps?: WorkflowStepsConfig;
  /** A person's time-bound access grants in force (src/core/change-control/records.ts). */
  grants?: (userId: string) => Promise<readonly { id: string; role: Role; arrays: readonly string[] }[]>;
}

/**
 * A principal that is not a person (`mcp:<name>`, `workflow:<step>`, src/core/access/actors.ts) has only the role its own
 * entry gives: never `default_role`, never a Slack group, and no identity lookup. People resolve through `access`.
 */
export function createAccessResolver(
  access: AccessConfig,
  identity: IdentityPort,
  principals: Principals = {},
): AccessResolver {
  const principalRole = async (userId: string, array: ArrayRef): Promise<Role | undefined> => {
    if (kindOfPrincipal(userId) === "workflow") {
      // A step's own role, capped by the role of the person Slack vouched for in it: a step started by a viewer
      // reads as a viewer whatever the step may do, and one started by nobody has only the step's role.
      const { step, vouched } = parseWorkflowId(userId);
      const own = stepRole(principals.workflowSteps ?? {}, step, array.name);
      if (vouched === undefined || own === undefined) return own;
      const person = await personRole(await who(vouched), array);
      return person === undefined ? undefined : capRole(own, person);
    }
    const name = userId.slice(ASSISTANT_PREFIX.length);
    const c = (principals.assistants ?? []).find((a) => a.name === name);
    return c ? clientRole(c, array.name) : undefined;
  };
  const isPerson = (userId: string) => kindOfPrincipal(userId) === "person";
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
  /** The highest role a grant in force gives the person on the array (guests stay capped at viewer). */
  const granted = async (userId: string, array: ArrayRef, restricted: boolean): Promise<Role | undefined> => {
    if (!principals.grants) return undefined;
    let best: Role | undefined;
    for (const g of await principals.grants(userId))
      if (arraysMatch(g.arrays, array)) best = maxRole(best, g.role);
    return restricted ? capRole(best, "viewer") : best;
  };
  const personRole = async (w: Who & { restricted: boolean }, array: ArrayRef) =>
    maxRole(resolve(w, array), await granted(w.userId, array, w.restricted));
  return {
    async roleOn(userId, array) {
      if (!isPerson(userId)) return principalRole(userId, array);
      return personRole(await who(userId), array);
    },
    async grantBehind(userId, array) {
      if (!principals.grants || !isPerson(userId)) return undefined;
      const w = await who(userId);
      const mapped = resolve(w, array);
      const cap = (r: Role) => (w.restricted ? capRole(r, "viewer") : r);
      const g = (await principals.grants(userId)).find(
        (x) => arraysMatch(x.arrays, array) && !roleAtLeast(mapped, cap(x.role) ?? x.role),
      );
      return g?.id;
    },
    async bestRole(userId, arrays) {
      let best: Role | undefined;
      if (!isPerson(userId)) {
        for (const a of arrays) best = maxRole(best, await principalRole(userId, a));
        return best;
      }
      const w = await who(userId);
      for (const a of arrays) best = maxRole(best, await personRole(w, a));
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
