/**
 * docs/commands.md, generated from the registry: every resource by area, every verb with its usage, minimum
 * role, destructive class and the first REST version that has it (read from the endpoint table through the
 * catalogue). *Sends* is the catalogue verb's endpoint, or for a hand-written command what its examples were
 * seen to send against the demo arrays (tools/observe-requests.ts passes that in as `observed`).
 * `npm run docs:commands` writes it; a test fails when the file is not current.
 */
import { AREAS } from "../src/core/catalogue/define-command.js";
import type { Registry } from "../src/core/catalogue/registry.js";
import { commandId } from "../src/core/catalogue/registry.js";
import { usageLine } from "../src/core/words/usage.js";
import { CATALOGUE_VERBS, CATALOGUE_VERBS_2X } from "./catalogue/index.js";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function commandsMarkdown(
  registry: Registry,
  observed: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const plans = new Map(
    [...CATALOGUE_VERBS, ...CATALOGUE_VERBS_2X].map((p) => [commandId(p.spec.noun, p.verb), p]),
  );
  const out: string[] = [
    "# /array commands",
    "",
    "Generated from the command registry by `npm run docs:commands`; do not edit by hand. `/array help` shows",
    "the same, filtered by your role, and `/array help <resource>` shows examples that work against the demo",
    "array. *Class* is the destructive class whose policy (`destructive:` in the configuration) gates the verb;",
    "*REST* is the first interface version that has it (older arrays answer with the version they run).",
    "*Sends* is the REST call the verb makes; for a hand-written verb, the calls its first working example made",
    "against the demo arrays (the planned request of a change, the reads of a lookup; – when it reaches no array).",
    "",
  ];
  let verbs = 0;
  for (const area of AREAS) {
    const resources = registry.resources.filter((r) => (r.area ?? "Operations") === area);
    if (resources.length === 0) continue;
    out.push(`## ${area}`, "");
    for (const r of resources) {
      const aliases = r.aliases?.length ? ` (also: ${r.aliases.map((a) => `\`${a}\``).join(", ")})` : "";
      out.push(`### ${r.name}${aliases}`, "", r.summary, "");
      out.push("| verb | usage | role | class | REST | sends |", "|---|---|---|---|---|---|");
      for (const c of r.commands) {
        const id = commandId(r.name, c.verb);
        const p = plans.get(id);
        // A catalogue verb that may return another class by impact (remove_last_server) names both.
        const cls = p ? c.gateClasses?.join(" / ") || (p.cls ?? "–") : c.destructive ? "by impact" : "–";
        const since = p ? p.since : "–";
        const declared = r.rest2Only ? c.endpoints?.join(", ") : undefined;
        const sends = p ? `${p.method} ${p.path}` : (observed.get(id)?.join(", ") ?? declared ?? "–");
        out.push(
          `| ${c.verb} | \`${cell(usageLine(id, c))}\` | ${c.role} | ${cls} | ${since} | ${cell(sends)} |`,
        );
        verbs++;
      }
      out.push("");
    }
  }
  out.push(`${registry.resources.length} resources, ${verbs} verbs.`, "");
  return out.join("\n");
}
