/** Help generated from the registry, listing only what the caller's role allows. */
import { UserFacingError } from "../errors.js";
import { SIZE_HELP } from "./arg-types.js";
import type { CommandDefinition } from "./define-command.js";
import { type Block, type Message, message, rich } from "./message.js";
import type { CommandEntry, Registry } from "./registry.js";
import { type Role, roleAtLeast } from "./roles.js";
import { didYouMean, suggest } from "./suggest.js";
import { argHelp, usageLine } from "./usage.js";

const FOOTER =
  `Options for every command: --array <name>, --array a,b, --array all, --array tag:<tag> (several arrays run in parallel); ` +
  `--dry-run on a command that changes something shows what it would do; --public on a lookup answers in the channel. ` +
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
  const [resWord, verb] = topic.includes(".") ? topic.split(".", 2) : topic.split(/\s+/, 2);
  const resource = registry.resource(resWord ?? "");
  if (!resource) {
    const hits = suggest(
      resWord ?? "",
      registry.resources.map((r) => r.name),
    );
    throw new UserFacingError(
      "UNKNOWN_HELP_TOPIC",
      `No help for \`${topic}\`.${didYouMean(hits)} Try \`/array help\`.`,
    );
  }
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
  const blocks: Block[] = [
    { type: "header", text: `/array ${resource.name}: ${resource.summary}` },
    ...entries.flatMap((e): Block[] => [
      {
        type: "section",
        text: rich`*${e.command.verb}*: ${e.command.summary}\n\`${usageLine(e.id, e.command)}\``,
      },
    ]),
    { type: "context", text: rich`${FOOTER}` },
  ];
  return message(`Help for /array ${resource.name}`, blocks);
}

function overview(registry: Registry, role: Role): Message {
  const blocks: Block[] = [{ type: "header", text: "/array commands you can run" }];
  for (const resource of registry.resources) {
    const entries = allowed(
      registry.all().filter((e) => e.resource === resource),
      role,
    );
    if (entries.length === 0) continue;
    const verbs = entries.map((e) => e.command.verb).join(", ");
    blocks.push({ type: "section", text: rich`*${resource.name}* (${verbs}): ${resource.summary}` });
  }
  blocks.push({
    type: "context",
    text: rich`Your role: ${role}. Details: /array help <resource>. ${FOOTER}`,
  });
  return message("/array commands you can run", blocks);
}

function commandHelp(entry: CommandEntry, role: Role): Message {
  const c: CommandDefinition = entry.command;
  const args = argHelp(c);
  const blocks: Block[] = [
    { type: "header", text: `/array ${entry.id.replace(".", " ")}` },
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
  blocks.push({ type: "code", text: c.examples.map((e) => `/array ${e}`).join("\n") });
  blocks.push({ type: "context", text: rich`Needs the ${c.role} role (you are ${role}). ${FOOTER}` });
  return message(`Help for /array ${entry.id.replace(".", " ")}`, blocks);
}
