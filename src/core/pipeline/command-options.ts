/**
 * Checks of a typed command line's global options (`--public`, and a global command's own `--array` and
 * `--reason`), apart from the flow that runs it (command-flow.ts).
 */
import { UserFacingError } from "../../errors.js";
import type { CommandEntry } from "../catalogue/registry.js";
import type { BoundArgs } from "../words/bind-args.js";
import { commandPath } from "../words/command-path.js";
import type { Runtime } from "./runtime.js";

/** `--public` is for lookups, in channels whose configuration allows answers everyone sees. */
export function checkPublic(rt: Runtime, entry: CommandEntry, channelId: string): void {
  const what = `\`${commandPath(entry.id)}\``;
  if (entry.command.impact) {
    throw new UserFacingError(
      "PUBLIC_NOT_APPLICABLE",
      `${what} changes something, so its result is announced in the channel anyway; drop --public.`,
    );
  }
  if (!rt.targets.publicAllowed(channelId)) {
    throw new UserFacingError(
      "CHANNEL_PUBLIC_FORBIDDEN",
      "This channel does not take public answers (its configuration sets public_answers: false); drop --public and the answer comes to you alone.",
    );
  }
}

/** A global command's own `--array`/`--reason` arguments, bound where it asks for them. */
export function withGlobalOptions(entry: CommandEntry, bound: BoundArgs): Record<string, unknown> {
  const own = entry.command.globalOptionsAsArgs;
  if (!own) return bound.raw;
  return {
    ...bound.raw,
    ...(own.array && bound.array !== undefined ? { [own.array]: bound.array } : {}),
    ...(own.reason && bound.reason !== undefined ? { [own.reason]: bound.reason } : {}),
  };
}
