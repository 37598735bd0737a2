/** The role ladder. Every check compares ranks; nothing branches on role names elsewhere. */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

/** True when `have` is at least `need`; `undefined` (no mapping) satisfies nothing. */
export function roleAtLeast(have: Role | undefined, need: Role): boolean {
  return have !== undefined && RANK[have] >= RANK[need];
}

/** The higher of two roles; undefined counts as no role. */
export function maxRole(a: Role | undefined, b: Role | undefined): Role | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** Guests and deactivated accounts never act above viewer. */
export function capRole(role: Role | undefined, cap: Role): Role | undefined {
  if (role === undefined) return undefined;
  return RANK[role] > RANK[cap] ? cap : role;
}
