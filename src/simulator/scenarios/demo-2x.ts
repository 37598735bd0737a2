/**
 * The demo's objects of the operations only REST 2.x has and no resource models yet (those are the generic
 * collection's): on every such path, `<last segment>-demo` (shown and changed by the help examples) and
 * `<last segment>-old` (deleted by them); a membership is keyed by its `*_names` words (`member-demo/policy-demo`),
 * as the generic collection keys what it creates. The catalogue's generated examples (tools/gen-catalogue-2x.mjs)
 * name the same objects. Ids are fixed strings, so the demo's other ids stay as they were.
 */
import { OPERATIONS } from "../../rest-spec/operations.js";
import { collection } from "../resources/generic.js";
import { modelled } from "../resources/index.js";
import type { SimState } from "../state.js";

/** Families whose demo objects are seeded through their own resources (demo-families.ts), not here. */
const SEEDED_BY_THEIR_RESOURCES = new Set([
  "nfs-export-policies",
  "smb-share-policies",
  "smb-client-policies",
  "file-system-exports",
  "network-access-policies",
  "qos-policies",
  "worm-data-policies",
  "legal-holds",
  "maintenance-windows",
  "sessions",
  "support-diagnostics",
  "realms",
  "fleets",
  "node-groups",
]);

export function seedDemo2x(state: SimState): void {
  const paths = new Map<string, Set<string>>();
  for (const op of OPERATIONS) {
    if (!op.versioned || !op.v2 || SEEDED_BY_THEIR_RESOURCES.has(op.family)) continue;
    const set = paths.get(op.path) ?? new Set<string>();
    if (op.v1) set.add("1.x");
    for (const p of Object.keys(op.v2.params)) set.add(p);
    paths.set(op.path, set);
  }
  let n = 0;
  for (const [path, params] of paths) {
    // A path 1.x has, or one a resource models, keeps its own seed.
    if (params.has("1.x") || modelled(path)) continue;
    const c = collection(state, path);
    if (c.singleton || c.items.size > 0) continue;
    const named = params.has("names");
    const others = [...params]
      .filter((p) => /_names$/.test(p) && !/^(context|source|target|to_\w+)_names$/.test(p))
      .sort();
    const last = path.split("/").at(-1) ?? "item";
    for (const which of ["demo", "old"]) {
      // A path that names nothing holds one record (its settings, its token), seeded once.
      const name = named
        ? `${last}-${which}`
        : others.length
          ? others.map((p) => `${p.replace(/_names$/, "").replaceAll("_", "-")}-${which}`).join("/")
          : which === "demo"
            ? last
            : undefined;
      if (name) c.items.set(name, { name, id: `demo-2x-${++n}` });
    }
  }
}
