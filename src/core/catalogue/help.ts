/** Help generated from the registry, listing only what the caller's role allows. */

import { UserFacingError } from "../../errors.js";
import { type Role, roleAtLeast } from "../access/roles.js";
import { type Block, joinRich, type Message, message, rich } from "../presentation/message.js";
import { SIZE_HELP } from "../words/arg-types.js";
import { commandPath } from "../words/command-path.js";
import { didYouMean, suggest } from "../words/suggest.js";
import { argHelp, usageLine } from "../words/usage.js";
import { AREAS, type Area, type CommandDefinition } from "./define-command.js";
import { type CommandEntry, type Registry, verbAlone } from "./registry.js";

const FOOTER =
  `Options for every command: --array <name>, --array a,b, --array all, --array tag:<tag> (several arrays run in parallel); ` +
  `--dry-run on a command that changes something shows what it would do; --public on a lookup answers in the channel; ` +
  `on a list, --where "used% > 90" keeps matching rows (any column shown, ops > >= < <= = != ~), --sort <column>[-] and --limit N apply to the rows of every array together. ` +
  `Note: ${SIZE_HELP}.`;

function allowed(entries: readonly CommandEntry[], role: Role | undefined): CommandEntry[] {
  return entries.filter((e) => roleAtLeast(role, e.command.role));
}

/** The help message for `topic` (nothing, a resource, or "resource.verb"). */
export function helpMessage(registry: Registry, role: Role | undefined, topic?: string): Message {
  if (role === undefined) {
    return message("You have no role yet.", [
      {
        type: "section",
        text: rich`You are not mapped to any role, so there is nothing you can run here yet. Ask an admin to add your Slack user or one of your user groups to the bot's access configuration.`,
      },
    ]);
  }
  if (topic === undefined) return overview(registry, role);
  if (REST2_TOPICS.has(topic.trim().toLowerCase())) return rest2Help(registry, role);
  const words = topic
    .trim()
    .split(/[.\s]+/)
    .filter(Boolean);
  const matched = registry.match(words);
  if (!matched) {
    const phrases = registry.resources.flatMap((r) => [r.name, ...(r.aliases ?? [])]);
    const hits = [...new Set([...suggest(words.join(" "), phrases), ...suggest(words[0] ?? "", phrases)])];
    throw new UserFacingError(
      "UNKNOWN_HELP_TOPIC",
      `No help for \`${topic}\`.${didYouMean(hits)} Try \`/array help\`.`,
    );
  }
  const { resource } = matched;
  const verb = words[matched.words];
  const entries = allowed(
    registry.all().filter((e) => e.resource === resource),
    role,
  );
  if (verb !== undefined) {
    const entry = entries.find((e) => e.command.verb === verb);
    if (entry) return commandHelp(entry, role);
  }
  if (entries.length === 0) {
    return message(`Nothing under ${resource.name} is open to a ${role}.`, [
      { type: "section", text: rich`Nothing under *${resource.name}* is open to the ${role} role.` },
    ]);
  }
  // The verb the resource alone runs comes first: the most useful example is the one typed most.
  const alone = verbAlone(resource);
  const ordered = [
    ...entries.filter((e) => e.command.verb === alone),
    ...entries.filter((e) => e.command.verb !== alone),
  ];
  const blocks: Block[] = [
    { type: "header", text: `/array ${resource.name}: ${resource.summary}` },
    ...ordered.map(
      (e): Block => ({
        type: "section",
        text: rich`*${e.command.verb}*: ${e.command.summary}\n\`${usageLine(e.id, e.command)}\`\nExample: \`/array ${elidePem(e.command.examples[0] ?? e.path)}\``,
      }),
    ),
    { type: "context", text: rich`${FOOTER}` },
  ];
  return message(`Help for /array ${resource.name}`, blocks);
}

export interface AreaIndex {
  area: Area;
  resources: { name: string; verbs: string[]; summary: string }[];
}

/** Per area, the resources the role may use and their verbs: the help overview and the App Home both show it. */
export function areaIndex(entries: readonly CommandEntry[], role: Role | undefined): AreaIndex[] {
  const out: AreaIndex[] = [];
  for (const area of AREAS) {
    const byResource = new Map<string, AreaIndex["resources"][number]>();
    for (const e of entries) {
      if ((e.resource.area ?? "Operations") !== area || !roleAtLeast(role, e.command.role)) continue;
      if (e.resource.rest2Only) continue;
      const r = byResource.get(e.resource.name) ?? {
        name: e.resource.name,
        verbs: [],
        summary: e.resource.summary,
      };
      r.verbs.push(e.command.verb);
      byResource.set(e.resource.name, r);
    }
    if (byResource.size > 0) out.push({ area, resources: [...byResource.values()] });
  }
  return out;
}

export function helpIndex(registry: Registry, role: Role | undefined): AreaIndex[] {
  return areaIndex(registry.all(), role);
}

/** `/array help 2x` (or `2.x`, `rest2`): every noun only REST 2.x arrays have, by family. */
const REST2_TOPICS = new Set(["2x", "2.x", "rest2", "rest-2x"]);
export const REST2_HEADING = "REST 2.x only";
const REST2_POINTER = "Every command only REST 2.x arrays have, by family: /array help 2x";

/**
 * The first-class 2.x-only families the role may use (issue 42), for the overview's short "REST 2.x only" line:
 * the overview leaves out the generated 2.x-only nouns to stay short, so these are named there on their own.
 */
export function rest2Featured(entries: readonly CommandEntry[], role: Role | undefined): string[] {
  const names = new Set<string>();
  for (const e of entries)
    if (e.resource.rest2Featured && roleAtLeast(role, e.command.role)) names.add(e.resource.name);
  return [...names];
}

/** The overview's line for 2.x-only families, as text a face shows after its areas (Slack, console, App Home). */
export function rest2Line(entries: readonly CommandEntry[], role: Role | undefined): string | undefined {
  const names = rest2Featured(entries, role);
  return names.length === 0 ? undefined : `${names.join(", ")}. ${REST2_POINTER}`;
}

function overview(registry: Registry, role: Role): Message {
  const blocks: Block[] = [{ type: "header", text: "/array commands you can run" }];
  for (const { area, resources } of helpIndex(registry, role)) {
    const few = resources.length <= 6;
    const list = joinRich(
      resources.map((r) => (few ? rich`*${r.name}* (${r.verbs.join(", ")})` : rich`*${r.name}*`)),
      ", ",
    );
    blocks.push({ type: "section", text: rich`*${area}*: ${list}` });
  }
  const featured = rest2Featured(registry.all(), role);
  if (featured.length > 0)
    blocks.push({
      type: "section",
      text: rich`*${REST2_HEADING}*: ${joinRich(
        featured.map((n) => rich`*${n}*`),
        ", ",
      )}. ${REST2_POINTER}`,
    });
  blocks.push({
    type: "context",
    text: rich`Your role: ${role}. Details and examples: /array help <resource>, e.g. /array help snmp manager. ${FOOTER}`,
  });
  return message("/array commands you can run", blocks);
}

/**
 * Every 2.x-only noun the role may use, per area, grouped by family (its first word): `qos-policy (bucket,
 * file-system, member)`. The overview names only the first-class families; this is where the rest are found.
 */
function rest2Help(registry: Registry, role: Role): Message {
  const blocks: Block[] = [{ type: "header", text: "/array commands only REST 2.x arrays have" }];
  for (const area of AREAS) {
    const families = new Map<string, Set<string>>();
    for (const e of registry.all()) {
      if (!e.resource.rest2Only || (e.resource.area ?? "Operations") !== area) continue;
      if (!roleAtLeast(role, e.command.role)) continue;
      const [head = "", ...rest] = e.resource.name.split(" ");
      const subs = families.get(head) ?? new Set<string>();
      if (rest.length > 0) subs.add(rest.join(" "));
      families.set(head, subs);
    }
    if (families.size === 0) continue;
    const list = joinRich(
      [...families].map(([f, subs]) =>
        subs.size > 0 ? rich`*${f}* (${[...subs].join(", ")})` : rich`*${f}*`,
      ),
      ", ",
    );
    blocks.push({ type: "section", text: rich`*${area}*: ${list}` });
  }
  if (blocks.length === 1)
    return message(`No REST 2.x-only command is open to a ${role}.`, [
      { type: "section", text: rich`No REST 2.x-only command is open to the ${role} role.` },
    ]);
  blocks.push({
    type: "context",
    text: rich`On an array that speaks REST 1.x these answer which 2.x version has them and send nothing. Details and examples: /array help <resource>, e.g. /array help nfs-export-policy rule. ${FOOTER}`,
  });
  return message("/array commands only REST 2.x arrays have", blocks);
}

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----[A-Za-z0-9+/=\s]*?-----END \1-----/g;
export const PEM_NOTE =
  "A PEM is shortened here to -----BEGIN …-----…-----END …-----: paste the whole PEM in its place, from its BEGIN line to its END line (line breaks may stay or become spaces).";

/** An example as help shows it: a PEM block shortened to its BEGIN and END lines (a key is screens long). */
export function elidePem(example: string): string {
  return example.replace(PEM, (_all, label: string) => `-----BEGIN ${label}-----…-----END ${label}-----`);
}

function commandHelp(entry: CommandEntry, role: Role): Message {
  const c: CommandDefinition = entry.command;
  const args = argHelp(c);
  const blocks: Block[] = [
    { type: "header", text: `/array ${commandPath(entry.id)}` },
    { type: "section", text: rich`${c.summary}\n\`${usageLine(entry.id, c)}\`` },
  ];
  if (args.length > 0) {
    blocks.push({
      type: "fields",
      fields: args.map((a) => ({
        label: a.syntax,
        value: rich`${a.description || (a.required ? "required" : "optional")}`,
      })),
    });
  }
  // A code block: examples hold characters like * that must reach the reader exactly, ready to copy.
  blocks.push({ type: "section", text: rich`Examples:` });
  const shown = c.examples.map(elidePem);
  blocks.push({ type: "code", text: shown.map((e) => `/array ${e}`).join("\n") });
  if (shown.some((e, i) => e !== c.examples[i])) blocks.push({ type: "context", text: rich`${PEM_NOTE}` });
  blocks.push({ type: "context", text: rich`Needs the ${c.role} role (you are ${role}). ${FOOTER}` });
  return message(`Help for /array ${commandPath(entry.id)}`, blocks);
}
