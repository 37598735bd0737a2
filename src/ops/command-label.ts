/**
 * The `command` label of the command metrics: the command id (`fs.list`, `fs.eradicate`), `help`, or `unknown`
 * for anything that does not parse. Ids come from the registry, so the label set stays bounded whatever people
 * type, and `fs list` and `fs eradicate` are counted apart.
 */

import type { Registry } from "../core/catalogue/registry.js";
import { parseCommandLine } from "../core/pipeline/parse.js";

export type CommandLabeler = (text: string) => string;

export const UNKNOWN_COMMAND = "unknown";

export function commandLabeler(registry: Registry): CommandLabeler {
  return (text) => {
    try {
      const parsed = parseCommandLine(text, registry);
      return parsed.kind === "help" ? "help" : parsed.entry.id;
    } catch {
      // Unknown commands, typos and arguments that do not bind: the pipeline answers them; the metric only
      // needs to know it was not a command.
      return UNKNOWN_COMMAND;
    }
  };
}
