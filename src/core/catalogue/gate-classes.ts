/**
 * Every destructive class in the config schema protects something. A class is either declared by at least one
 * command (`gateClasses` next to its `destructive` function) or listed in RESERVED_CLASSES with the issue whose
 * commands will use it; anything else is a policy an operator could set that guards nothing, and start-up fails.
 * As those commands land, their entries leave RESERVED_CLASSES (a reserved class that is already used also fails
 * the check, so the list cannot go stale).
 */
import { destructiveSchema } from "../../config/schema.js";
import type { DestructiveClass, ResourceDefinition } from "./define-command.js";

/** Classes kept in the schema for commands that are planned but not here yet, with the issue that adds them. */
export const RESERVED_CLASSES: Readonly<Partial<Record<DestructiveClass, string>>> = {};

/** Keys of the `destructive` section that are not classes. */
const NOT_CLASSES = new Set(["expiry", "approvals_channel"]);

/** The destructive classes the config schema offers policies for. */
export function configuredClasses(): DestructiveClass[] {
  return Object.keys(destructiveSchema.shape).filter((k) => !NOT_CLASSES.has(k)) as DestructiveClass[];
}

/** Problems with the classes: unused, reserved but used, or a destructive command that declares none. */
export function checkGateClasses(
  resources: readonly ResourceDefinition[],
  reserved: Readonly<Partial<Record<string, string>>> = RESERVED_CLASSES,
): string[] {
  const problems: string[] = [];
  const used = new Map<string, string[]>();
  for (const r of resources) {
    for (const c of r.commands) {
      const id = `${r.name} ${c.verb}`;
      if (c.destructive && (c.gateClasses?.length ?? 0) === 0)
        problems.push(`${id}: a destructive command must list the classes it may return in gateClasses`);
      for (const cls of c.gateClasses ?? []) used.set(cls, [...(used.get(cls) ?? []), id]);
    }
  }
  const known = new Set<string>(configuredClasses());
  for (const cls of used.keys()) {
    if (!known.has(cls))
      problems.push(`class "${cls}" is used by ${used.get(cls)?.join(", ")} but has no policy`);
  }
  for (const cls of known) {
    const users = used.get(cls);
    const why = reserved[cls];
    if (!users && why === undefined)
      problems.push(
        `destructive.${cls} protects nothing: no command uses it; remove it from the schema or reserve it`,
      );
    if (users && why !== undefined)
      problems.push(`destructive.${cls} is used by ${users.join(", ")}; remove it from RESERVED_CLASSES`);
  }
  return problems;
}
