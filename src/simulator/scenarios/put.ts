/** Seeding helpers for the generic collections. */
import type { SimState } from "../state.js";

export type Item = Record<string, unknown>;

export function put(state: SimState, path: string, items: Item[], singleton = false): void {
  const c = state.generic.get(path) ?? { singleton, items: new Map<string, Item>() };
  for (const item of items) c.items.set(String(item["name"]), item);
  state.generic.set(path, c);
}

/** Hardware connectors by name, as a link aggregation group's ports name them. */
export function ports(state: SimState, ...names: string[]) {
  const connectors = state.generic.get("/hardware-connectors")?.items;
  return names.map((name) => ({ name, id: (connectors?.get(name)?.["id"] as string | undefined) ?? null }));
}

export function ref(state: SimState, path: string, name: string, resourceType: string) {
  const id = state.generic.get(path)?.items.get(name)?.["id"] ?? null;
  return { name, id, resource_type: resourceType };
}
