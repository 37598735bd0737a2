/**
 * A generic verb's argument schema is built the first time something reads `args`, then kept: the catalogue has
 * 700-odd generic verbs and a running bot uses a few dozen, while building every schema at import held ~21 MiB
 * of zod instances for the life of the process. Every consumer still reads `command.args` as a zod object.
 */
import type { z } from "zod";
import type { CommandDefinition } from "../../../src/core/catalogue/define-command.js";

let built = 0;

/** How many generic argument schemas have been built in this process (a test checks that import builds none). */
export const argsSchemasBuilt = (): number => built;

/**
 * The definition with `args` as a cached getter. It is defined on the object itself, so the definition must
 * not be spread afterwards (a spread reads the getter, building the schema): add to it with Object.assign.
 */
export function withLazyArgs<R>(
  build: () => z.ZodObject,
  def: Omit<CommandDefinition<z.ZodObject, R>, "args">,
): CommandDefinition<z.ZodObject, R> {
  let schema: z.ZodObject | undefined;
  return Object.defineProperty(def, "args", {
    enumerable: true,
    get() {
      if (schema === undefined) {
        schema = build();
        built++;
      }
      return schema;
    },
  }) as CommandDefinition<z.ZodObject, R>;
}
