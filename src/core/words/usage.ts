/** Usage lines and option descriptions generated from a command's schema, for help and for parse errors. */

import type { z } from "zod";
import type { CommandDefinition } from "../catalogue/define-command.js";
import { commandPath } from "./command-path.js";
import { describeArg, isOptional, isSwitch, keyToOption } from "./schema-introspect.js";

export interface ArgHelp {
  /** `<name>` or `--hard-limit` or `--limit <limit>`. */
  syntax: string;
  required: boolean;
  description: string;
}

export function argHelp(cmd: CommandDefinition): ArgHelp[] {
  const shape = cmd.args.shape as Record<string, z.ZodType>;
  const positional = new Set<string>(cmd.positional ?? []);
  const out: ArgHelp[] = [];
  for (const key of cmd.positional ?? []) {
    const schema = shape[key];
    if (!schema) continue;
    out.push({
      syntax: `<${keyToOption(key)}>`,
      required: !isOptional(schema),
      description: describeArg(schema) ?? "",
    });
  }
  for (const [key, schema] of Object.entries(shape)) {
    if (positional.has(key)) continue;
    const opt = keyToOption(key);
    const syntax = isSwitch(schema) ? `--${opt}` : `--${opt} <${opt}>`;
    out.push({ syntax, required: !isOptional(schema), description: describeArg(schema) ?? "" });
  }
  return out;
}

/** "fs resize <name> <size> [--hard-limit] [--dry-run] [--array <name>]" (without the leading /array). */
export function usageLine(id: string, cmd: CommandDefinition): string {
  const parts = [commandPath(id)];
  for (const a of argHelp(cmd)) parts.push(a.required ? a.syntax : `[${a.syntax}]`);
  if (cmd.impact) parts.push("[--dry-run]");
  if ((cmd.scope ?? "array") === "array") parts.push("[--array <name>]");
  if (!cmd.impact) parts.push("[--public]");
  return `/array ${parts.join(" ")}`;
}
