/** Turns catalogue entries into registry resources: one generic command per derived verb. */
import type { CommandDefinition, ResourceDefinition } from "../../../src/core/catalogue/define-command.js";
import type { NounSpec, VerbName } from "../spec.js";
import { changeCommand } from "./changes.js";
import { type VerbPlan, verbPlans } from "./derive.js";
import { only2x } from "./endpoint.js";
import { lifecycleCommands } from "./lifecycle.js";
import { listCommand, readActionCommand, showCommand } from "./reads.js";
import { switchCommands } from "./switches.js";

export function commandOf(p: VerbPlan): CommandDefinition {
  const built = plainCommandOf(p);
  if (!p.spec.form || !built.impact) return built;
  // The noun's form layout serves each of its changes; a title is per verb ("Set a QoS limit" is an update).
  const { titles, ...layout } = p.spec.form;
  const title = titles?.[p.verb as VerbName] ?? titles?.[p.kind as VerbName];
  // Added in place, not spread: a spread would read `args` and build the schema at import (lazy-args.ts).
  return Object.assign(built, { form: { ...layout, ...(title ? { title } : {}) } });
}

function plainCommandOf(p: VerbPlan): CommandDefinition {
  // Two singletons over one path (`array set`, `banner set`: PATCH /arrays) own different fields of it.
  const facet = p.kind === "set" && p.spec.writable ? ` {${p.spec.writable.join(", ")}}` : "";
  const endpoints = [`${p.method} ${p.path}${facet}`];
  // A verb renamed for its noun (virtual-host add) keeps the generic word: `virtual-host create` reaches it.
  const renamed = p.kind !== "action" && p.verb !== p.kind;
  const replaces = renamed ? { replaces: [`${p.spec.noun.split(" ").join(".")}.${p.kind}`] } : {};
  // A 2.x-only verb of a noun 1.x arrays have (rest2Methods) says so; a 2.x-only noun says it for all its verbs.
  const gen = only2x(p.endpoint) && !p.spec.rest2 ? { rest2Only: true } : {};
  if (p.kind === "list") return Object.assign(listCommand(p), { endpoints, ...gen });
  if (p.kind === "show") return Object.assign(showCommand(p), { endpoints, ...gen });
  if (p.kind === "action" && p.method === "GET")
    return Object.assign(readActionCommand(p), { endpoints, ...gen });
  return Object.assign(changeCommand(p), { endpoints, ...replaces, ...gen });
}

/**
 * The lifecycle trait's verbs of a catalogue entry; `eradicate` is its DELETE, so it replaces `delete` and
 * keeps its words (`bucket delete x` is `bucket eradicate x`).
 */
function lifecycleOf(spec: NounSpec): CommandDefinition[] {
  if (!spec.lifecycle) return [];
  const commands = lifecycleCommands({ noun: spec.noun, path: spec.path, lifecycle: spec.lifecycle });
  const deleteId = `${spec.noun.split(" ").join(".")}.delete`;
  return commands.map((c) => (c.verb === "eradicate" ? { ...c, replaces: [deleteId] } : c));
}

/** Generic verbs a hand-written command or the lifecycle trait takes over: the same verb, or one it `replaces`. */
export function replacedVerbs(spec: NounSpec, hand?: ResourceDefinition): Set<string> {
  const out = new Set<string>();
  if (spec.lifecycle) out.add("delete");
  for (const c of hand?.commands ?? []) {
    out.add(c.verb);
    for (const id of c.replaces ?? []) {
      const prefix = `${spec.noun.split(" ").join(".")}.`;
      if (id.startsWith(prefix)) out.add(id.slice(prefix.length));
    }
  }
  return out;
}

/**
 * The resource for a catalogue entry. A hand-written resource's verbs replace generic ones of the same name
 * (quotas, replica links, access-key secrets…) or join them, keeping one noun in help; its name and aliases
 * become aliases of the catalogue noun, so the words people know keep working.
 */
export function resourceOf(spec: NounSpec, hand?: ResourceDefinition): ResourceDefinition {
  const overrides = hand?.commands ?? [];
  const replaced = replacedVerbs(spec, hand);
  const generic = verbPlans(spec)
    .filter((p) => !replaced.has(p.verb))
    .map(commandOf)
    .concat(lifecycleOf(spec).filter((c) => !replaced.has(c.verb)));
  const aliases = [
    ...new Set([...(spec.aliases ?? []), ...(hand ? [hand.name, ...(hand.aliases ?? [])] : [])]),
  ].filter((a) => a !== spec.noun);
  return {
    name: spec.noun,
    ...(aliases.length > 0 ? { aliases } : {}),
    area: spec.area,
    summary: hand?.summary ?? spec.summary,
    ...(hand?.defaultVerb ? { defaultVerb: hand.defaultVerb } : {}),
    // Switches follow the hand-written verbs, as they did when they were hand-written (help keeps its order).
    commands: [...generic, ...overrides, ...switchCommands(spec)],
  };
}
