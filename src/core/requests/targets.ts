/**
 * Which arrays a command targets: `--array name|a,b|all|tag:prod`, else the channel's default array, else the
 * configured default, else the only array there is. Channel bindings limit what a channel may target; "all"
 * and tags mean "all (with that tag) that this channel may use".
 */
import type { ChannelsConfig } from "../../config/schema.js";
import { UserFacingError } from "../../errors.js";
import type { ArrayClient, ArrayPool } from "../../flashblade/types.js";

export interface TargetResolver {
  /** Arrays this channel may target, in pool order. */
  allowed(channelId: string): ArrayClient[];
  /** The arrays a command targets; every failure is a UserFacingError. */
  resolve(spec: string | undefined, channelId: string): ArrayClient[];
  /** Whether `--public` may answer in this channel. */
  publicAllowed(channelId: string): boolean;
}

/** True when `--array` asks for several arrays by selector (all, a tag, a list), whatever it resolves to. */
export function isMultiSpec(spec: string | undefined): boolean {
  if (spec === undefined) return false;
  return (
    spec.split(",").some((p) => {
      const t = p.trim().toLowerCase();
      return t === "all" || t.startsWith("tag:");
    }) || spec.split(",").filter((p) => p.trim() !== "").length > 1
  );
}

/** Arrays a refusal names before it counts the rest. */
const NAMES_SHOWN = 8;

export function createTargetResolver(pool: ArrayPool, channels: ChannelsConfig): TargetResolver {
  // Channel ids arrive from the transport; never let one name a member of Object.prototype.
  const bindingOf = (channelId: string) =>
    Object.hasOwn(channels.bindings, channelId) ? channels.bindings[channelId] : undefined;
  const allowed = (channelId: string): ArrayClient[] => {
    const binding = bindingOf(channelId);
    if (!binding) return channels.unbound === "all" ? pool.list() : [];
    return dedupe(binding.arrays.flatMap((sel) => (sel === "all" ? pool.list() : pool.select(sel))));
  };

  const resolve = (spec: string | undefined, channelId: string): ArrayClient[] => {
    const permitted = allowed(channelId);
    if (permitted.length === 0) {
      throw new UserFacingError(
        "CHANNEL_NOT_BOUND",
        "This channel is not bound to any array. Run the command in a channel that is, or ask an admin to add a channel binding.",
      );
    }
    // Built only when asked: every command comes here, and at a thousand arrays the set and the list of names
    // were most of what resolving a single array cost.
    let nameSet: Set<string> | undefined;
    const names = () => {
      nameSet ??= new Set(permitted.map((a) => a.name));
      return nameSet;
    };
    const allows = (name: string) => nameSet?.has(name) ?? permitted.some((a) => a.name === name);
    // A fleet's names would bury the answer: the first few, and a count of the rest.
    const permittedList = () =>
      permitted.length <= NAMES_SHOWN
        ? permitted.map((a) => a.name).join(", ")
        : `${permitted
            .slice(0, NAMES_SHOWN)
            .map((a) => a.name)
            .join(", ")} and ${permitted.length - NAMES_SHOWN} more (\`arrays list\` names them)`;
    if (spec === undefined) {
      const fallback = bindingOf(channelId)?.default_array ?? channels.default_array;
      if (fallback !== undefined && allows(fallback)) return [pool.get(fallback)];
      if (permitted.length === 1) return permitted;
      throw new UserFacingError(
        "ARRAY_REQUIRED",
        `Which array? Add --array <name> (this channel may use: ${permittedList()}), or --array all.`,
      );
    }
    const parts = spec
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0)
      throw new UserFacingError("ARRAY_REQUIRED", "--array is empty; name an array, a,b, all or tag:<tag>.");
    const out: ArrayClient[] = [];
    for (const part of parts) {
      if (part.toLowerCase() === "all") {
        out.push(...permitted);
        continue;
      }
      if (part.startsWith("tag:")) {
        const hits = pool.select(part).filter((a) => names().has(a.name));
        if (hits.length === 0) {
          throw new UserFacingError(
            "ARRAY_NONE_SELECTED",
            `No array this channel may use has tag "${part.slice(4)}".`,
          );
        }
        out.push(...hits);
        continue;
      }
      const client = pool.get(part);
      // A fleet member is reached through a configured array: the channel must be allowed that one.
      if (!allows(client.context?.via ?? client.name)) {
        throw new UserFacingError(
          "CHANNEL_FORBIDDEN",
          `This channel may not target array ${client.name}; it may use: ${permittedList()}.`,
        );
      }
      out.push(client);
    }
    return dedupe(out);
  };

  const publicAllowed = (channelId: string): boolean =>
    bindingOf(channelId)?.public_answers ?? channels.public_answers;

  return { allowed, resolve, publicAllowed };
}

function dedupe(clients: ArrayClient[]): ArrayClient[] {
  const seen = new Set<string>();
  return clients.filter((c) => {
    if (seen.has(c.name)) return false;
    seen.add(c.name);
    return true;
  });
}
