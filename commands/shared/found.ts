/** Looking an object up by name before changing or showing it. */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { didYouMean, suggest } from "../../src/core/words/suggest.js";
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

/** Names read at most when looking for a near one: enough for any real array's objects of one kind. */
const MAX_NAMES = 10_000;

/**
 * " Did you mean `home`?" for a name that is not there, from the names the array has at `path` (the same
 * distance as nouns and verbs); "" when none is near, or when the names cannot be read.
 */
export async function nearNames(ctx: CommandContext, path: string, name: string): Promise<string> {
  try {
    const names: string[] = [];
    for await (const item of ctx.array.iterate<{ name?: unknown }>(path, {})) {
      if (typeof item.name === "string") names.push(item.name);
      if (names.length >= MAX_NAMES) break;
    }
    return didYouMean(suggest(name, names));
  } catch {
    // The suggestion is a courtesy: a failed read leaves the plain "there is no …".
    return "";
  }
}

/** NOT_FOUND saying `notFound`, with the nearest names of `path` when there are some. */
export async function notFoundError(
  ctx: CommandContext,
  path: string,
  name: string,
  notFound: string,
): Promise<UserFacingError> {
  const near = await nearNames(ctx, path, name);
  return new UserFacingError("NOT_FOUND", `${notFound}${near}`);
}
