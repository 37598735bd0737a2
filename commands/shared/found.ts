/** Looking an object up by name before changing or showing it. */
import { UserFacingError } from "../../src/errors.js";

/**
 * The item called `name`, or a NOT_FOUND error saying `notFound` (each command words it: what to list, or
 * that nothing was changed).
 */
export function requireNamed<T extends { name?: string | null | undefined }>(
  items: readonly T[],
  name: string,
  notFound: string,
): T {
  const item = items.find((x) => x.name === name);
  if (!item) throw new UserFacingError("NOT_FOUND", notFound);
  return item;
}

/** Creating what already exists is refused with ALREADY_EXISTS saying `exists`. */
export function refuseNamed(
  items: readonly { name?: string | null | undefined }[],
  name: string,
  exists: string,
): void {
  if (items.some((x) => x.name === name)) throw new UserFacingError("ALREADY_EXISTS", exists);
}
