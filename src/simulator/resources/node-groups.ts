/**
 * Node groups (2.18+) and the renames 2.x does by PATCH `?names=old` with `{name: new}` (fleets and node groups).
 * - A node group holds nodes of the array (`/nodes`): a node joins by name, once; it leaves only if it is in.
 * - Renaming keeps the object's id and moves what refers to it by name (a group's memberships, a fleet's members).
 * - A node group's uses (2.18+) are the file systems placed in it (`FileSystem.node_group`); a group in use cannot
 *   be deleted, and an eradicated file system leaves its group.
 */
import { nameProblem } from "../../rest-spec/names.js";
import { bodyObject, type Json } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, selectByNamesOrIds } from "./common.js";
import { onlyFields, type Rec, records, refOf } from "./family-store.js";

/**
 * Renames the one object `?names=`/`?ids=` selects in `path`'s records to the body's `name`, in place (the map
 * keeps its order); `moved` carries the rename to the records that name it.
 */
export function renameIn(
  req: SimRequest,
  state: SimState,
  path: string,
  what: string,
  model: string,
  moved?: (from: string, to: Rec) => void,
): Rec {
  const body = bodyObject(req, model);
  onlyFields(body, ["name"], model);
  const targets = selectByNamesOrIds(req, records(state, path), what) as Rec[];
  const target = targets[0];
  if (!target || targets.length > 1) throw badRequest(`Rename one ${what.toLowerCase()} at a time.`);
  const to = body["name"];
  if (typeof to !== "string") throw badRequest(`'name' is required: the ${what.toLowerCase()}'s new name.`);
  const problem = nameProblem(to);
  if (problem) throw badRequest(`'${to}' is not a valid name (${problem}).`, to);
  if (to !== target.name && records(state, path).has(to))
    throw badRequest(`${what} '${to}' already exists.`, to);
  const renamed: Rec = { ...target, name: to };
  const rows = [...records(state, path)].map(([k, r]): [string, Rec] =>
    k === target.name ? [to, renamed] : [k, r],
  );
  records(state, path).clear();
  for (const [k, r] of rows) records(state, path).set(k, r);
  moved?.(target.name, renamed);
  return renamed;
}

const GROUPS = "/node-groups";
const NODES = "/node-groups/nodes";
/** File systems placed in a node group, keyed by file system name: `{name: group, use: fs}`. */
const USES = "/node-groups/uses";
/** Memberships keyed `group/node`, as the generic collection keys a membership by its `*_names` words. */
const key = (group: string, node: string) => `${group}/${node}`;

function oneName(req: SimRequest, param: string, what: string): string {
  const names = req.query.list(param)?.filter(Boolean) ?? [];
  if (names.length !== 1) throw badRequest(`Name one ${what} ('${param}').`, param);
  return names[0] as string;
}

function groupOf(req: SimRequest, state: SimState): Rec {
  const name = oneName(req, "node_group_names", "node group");
  const group = records(state, GROUPS).get(name);
  if (!group) throw badRequest(`Node group '${name}' does not exist.`, name);
  return group;
}

const renameGroup: Handler = (req, state) =>
  ok([
    renameIn(req, state, GROUPS, "Node group", "NodeGroupPatch", (from, to) => {
      for (const [k, m] of [...records(state, NODES)]) {
        if (!k.startsWith(`${from}/`)) continue;
        records(state, NODES).delete(k);
        const node = (m["member"] as Rec).name;
        records(state, NODES).set(key(to.name, node), {
          ...m,
          name: key(to.name, node),
          group: refOf(to, "node-groups"),
        });
      }
      for (const u of records(state, USES).values()) if (u["group"] === from) u["group"] = to.name;
    }),
  ]);

const deleteGroups: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, GROUPS), "Node group") as Rec[];
  for (const g of targets) {
    const use = [...records(state, USES).values()].find((u) => u["group"] === g.name);
    if (use) throw badRequest(`Node group '${g.name}' is in use by file system '${use.name}'.`, g.name);
  }
  for (const g of targets) {
    records(state, GROUPS).delete(g.name);
    for (const k of [...records(state, NODES).keys()])
      if (k.startsWith(`${g.name}/`)) records(state, NODES).delete(k);
  }
  return EMPTY;
};

const listNodes: Handler = (req, state) => {
  const groups = req.query.list("node_group_names");
  const nodes = req.query.list("node_names");
  const rows = [...records(state, NODES).values()].filter(
    (m) =>
      (!groups || groups.includes((m["group"] as Rec).name)) &&
      (!nodes || nodes.includes((m["member"] as Rec).name)),
  );
  return listing(
    rows.map(({ group, member }) => ({ group, member })),
    req,
    { noun: "Node group member", nameParams: [] },
  );
};

const addNode: Handler = (req, state) => {
  const group = groupOf(req, state);
  const name = oneName(req, "node_names", "node");
  const node = records(state, "/nodes").get(name);
  if (!node) throw badRequest(`Node '${name}' does not exist.`, name);
  if (records(state, NODES).has(key(group.name, name)))
    throw badRequest(`Node '${name}' is already in node group '${group.name}'.`, name);
  const row: Rec = {
    name: key(group.name, name),
    id: state.newId(),
    group: refOf(group, "node-groups"),
    member: refOf(node, "nodes"),
  };
  records(state, NODES).set(row.name, row);
  return ok([{ group: row["group"], member: row["member"] }]);
};

const removeNode: Handler = (req, state) => {
  const group = groupOf(req, state);
  const name = oneName(req, "node_names", "node");
  if (!records(state, NODES).delete(key(group.name, name)))
    throw badRequest(`Node '${name}' is not in node group '${group.name}'.`, name);
  return EMPTY;
};

/** Places file system `fs` in node group `group` (both must exist): what a file system's `node_group` says. */
export function placeInNodeGroup(state: SimState, fs: string, group: string): void {
  if (!records(state, GROUPS).has(group)) throw badRequest(`Node group '${group}' does not exist.`, group);
  if (!state.fileSystems.has(fs)) throw badRequest(`File system '${fs}' does not exist.`, fs);
  // No id drawn from the state's source: a demo seeds this, and drawn ids would shift the ids tests pin.
  records(state, USES).set(fs, { name: fs, id: `use:${fs}`, group });
}

/** The node group a file system is placed in, as its 2.18+ `node_group` reference (null when none). */
export function nodeGroupOf(state: SimState, fs: string): Json | null {
  const group = records(state, GROUPS).get(String(records(state, USES).get(fs)?.["group"] ?? ""));
  return group ? refOf(group, "node-groups") : null;
}

const listUses: Handler = (req, state) => {
  const rows = [...records(state, USES).values()].flatMap((u) => {
    const group = records(state, GROUPS).get(String(u["group"]));
    const fs = state.fileSystems.get(u.name);
    if (!group || !fs) return [];
    return [{ name: group.name, id: group.id, use: refOf(fs, "file-systems") }];
  });
  return listing(rows, req, { noun: "Node group use" });
};

export const NODE_GROUP_ROUTES = {
  [USES]: { GET: listUses },
  [GROUPS]: { PATCH: renameGroup, DELETE: deleteGroups },
  [NODES]: { GET: listNodes, POST: addNode, DELETE: removeNode },
};
