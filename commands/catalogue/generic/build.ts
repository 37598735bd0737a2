/** Turns catalogue entries into registry resources: one generic command per derived verb. */
import type { CommandDefinition, ResourceDefinition } from "../../../src/core/define-command.js";
import type { NounSpec } from "../spec.js";
import { changeCommand } from "./changes.js";
import { type VerbPlan, verbPlans } from "./derive.js";
import { listCommand, readActionCommand, showCommand } from "./reads.js";

export function commandOf(p: VerbPlan): CommandDefinition {
  if (p.kind === "list") return listCommand(p);
  if (p.kind === "show") return showCommand(p);
  if (p.kind === "action" && p.method === "GET") return readActionCommand(p);
  return changeCommand(p);
}

/**
 * The resource for a catalogue entry. `overrides` replaces generic verbs by hand-written ones (quotas,
 * policies, replica links…) or adds verbs, keeping the resource one noun in help.
 */
export function resourceOf(spec: NounSpec, overrides: readonly CommandDefinition[] = []): ResourceDefinition {
  const replaced = new Set(overrides.map((c) => c.verb));
  const generic = verbPlans(spec)
    .filter((p) => !replaced.has(p.verb))
    .map(commandOf);
  return {
    name: spec.noun,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    area: spec.area,
    summary: spec.summary,
    commands: [...generic, ...overrides],
  };
}
