/**
 * Command ids and the words people type. A resource is one or more words ("fs", "snmp manager"), a command
 * is the resource's words and a verb; its id joins them with dots ("snmp.manager.create"), which audit records,
 * pending requests and metrics keep. This is the one place that turns one into the other.
 */

/** "snmp.manager.create" → "snmp manager create". */
export function commandPath(id: string): string {
  return id.replaceAll(".", " ");
}

/** The id of `<resource> <verb>`: the words of both, joined with dots. */
export function commandId(resourceName: string, verb: string): string {
  return `${resourceName.split(" ").join(".")}.${verb}`;
}
