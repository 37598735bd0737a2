/** NFS export rule edits (1.11+): `add_rules`, `remove_rules` and `after` on a file system's rule string. */
import { badRequest } from "../types.js";

/** Export rules are whitespace-separated `client(options)` entries. */
function entries(rules: string): string[] {
  return rules.split(/\s+(?![^(]*\))/).filter((s) => s !== "");
}

export function applyNfsRuleEdits(
  fsName: string,
  current: string,
  edit: { add_rules?: string; remove_rules?: string; after?: string },
): string {
  let list = entries(current);
  for (const r of entries(edit.remove_rules ?? "")) {
    if (!list.includes(r))
      throw badRequest(`File system '${fsName}' has no NFS export rule '${r}' to remove.`, fsName);
    list = list.filter((x) => x !== r);
  }
  const add = entries(edit.add_rules ?? "");
  if (edit.after !== undefined && edit.add_rules === undefined) {
    throw badRequest("'nfs.after' only applies together with 'nfs.add_rules'.", fsName);
  }
  let pos = list.length;
  if (edit.after !== undefined) {
    const i = list.indexOf(edit.after);
    if (i < 0) throw badRequest(`File system '${fsName}' has no NFS export rule '${edit.after}'.`, fsName);
    pos = i + 1;
  }
  list.splice(pos, 0, ...add.filter((r) => !list.includes(r)));
  return list.join(" ");
}
