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
 * The resource for a catalogue entry. A hand-written resource's verbs replace generic ones of the same name
 * (quotas, replica links, access-key secrets…) or join them, keeping one noun in help; its name and aliases
 * become aliases of the catalogue noun, so the words people know keep working.
 */
export function resourceOf(spec: NounSpec, hand?: ResourceDefinition): ResourceDefinition {
  const overrides = hand?.commands ?? [];
  const replaced = new Set(overrides.map((c) => c.verb));
  const generic = verbPlans(spec)
    .filter((p) => !replaced.has(p.verb))
    .map(commandOf);
  const aliases = [
    ...new Set([...(spec.aliases ?? []), ...(hand ? [hand.name, ...(hand.aliases ?? [])] : [])]),
  ].filter((a) => a !== spec.noun);
  return {
    name: spec.noun,
    ...(aliases.length > 0 ? { aliases } : {}),
    area: spec.area,
    summary: hand?.summary ?? spec.summary,
    ...(hand?.defaultVerb ? { defaultVerb: hand.defaultVerb } : {}),
    commands: [...generic, ...overrides],
  };
}
