/** Dotted field access (`space.virtual`, `user.name`) shared by the filter and the sort. */

export type FieldGetter = (item: unknown) => unknown;

/**
 * Compiles a dotted path once. Only own properties count, so `constructor` or `__proto__` never reach the
 * prototype chain and a field missing from an item is simply undefined.
 */
export function compilePath(path: string): FieldGetter {
  const segments = path.split(".");
  if (segments.length === 1) {
    const key = path;
    return (item) =>
      item !== null && typeof item === "object" && Object.hasOwn(item, key)
        ? (item as Record<string, unknown>)[key]
        : undefined;
  }
  return (item) => {
    let value: unknown = item;
    for (const key of segments) {
      if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
}
