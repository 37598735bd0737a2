/**
 * Who destroyed an object through the bot, from its kept records (`/array history`): the array's own audit log
 * names only the API user the bot signs in as (`pureuser`), the bot's records name the chat people.
 */

import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { commandId } from "../../src/core/words/command-path.js";
import { changesOf } from "../history.js";

export interface ChatDestroyer {
  /** "bob", or "bob, approved by alice". */
  who: string;
  /** When the destroy was sent (ms). */
  at: number;
}

/** The newest destroy of each named object (resource `kind`: "fs", "snapshot", "bucket") that the array took. */
export async function destroyedThroughBot(
  ctx: CommandContext,
  kind: string,
  names: readonly string[],
): Promise<Map<string, ChatDestroyer>> {
  const out = new Map<string, ChatDestroyer>();
  const history = ctx.history;
  if (!history) return out;
  const destroy = commandId(kind, "destroy");
  const found = await Promise.all(
    names.map(async (name) => {
      const changes = changesOf(await history.of({ array: ctx.arrayName, kind, name }));
      // Only when the bot's last change to it was that destroy (not recovered through the bot since).
      const last = changes.filter((c) => c.outcome === "done").at(-1);
      return [name, last?.command === destroy ? last : undefined] as const;
    }),
  );
  for (const [name, c] of found) {
    if (!c) continue;
    const approved = c.approvedBy?.length ? `, approved by ${c.approvedBy.join(", ")}` : "";
    out.set(name, { who: `${c.requestedBy}${approved}`, at: c.lastAt });
  }
  return out;
}

/**
 * Who destroyed snapshots by changing their policy through the bot: the policy's newest change the array took
 * that was sent with `destroy_snapshots=true` (an approved `policy update --remove-rule`). The array destroys
 * the snapshots the removed rules made, none named in the request, so they are matched by the policy that made
 * them (a snapshot's `policy`); the array's own log, if it shows a destroy of one later, still wins (newerOf).
 */
export async function destroyedByPolicyChange(
  ctx: CommandContext,
  policies: readonly string[],
): Promise<Map<string, ChatDestroyer>> {
  const out = new Map<string, ChatDestroyer>();
  const history = ctx.history;
  if (!history) return out;
  const update = commandId("policy", "update");
  await Promise.all(
    [...new Set(policies)].map(async (name) => {
      const changes = changesOf(await history.of({ array: ctx.arrayName, kind: "policy", name }));
      const c = changes
        .filter(
          (x) =>
            x.outcome === "done" &&
            x.command === update &&
            x.sent.some((l) => /[?&]destroy_snapshots=true\b/.test(l)),
        )
        .at(-1);
      if (!c) return;
      const approved = c.approvedBy?.length ? `, approved by ${c.approvedBy.join(", ")}` : "";
      out.set(name, { who: `${c.requestedBy}${approved} (policy update ${name})`, at: c.lastAt });
    }),
  );
  return out;
}

/**
 * The chat destroyer unless the array's own log shows a destroy of it well after (made outside the bot since):
 * the bot's destroy is logged by the array moments after the bot sent it; ten minutes allow for clock skew.
 */
export function newerOf(
  chat: ChatDestroyer | undefined,
  array: { user: string; at: number } | undefined,
): { user: string; at: number; viaBot: boolean } | undefined {
  if (chat && (!array || array.at <= chat.at + 600_000)) return { user: chat.who, at: chat.at, viaBot: true };
  return array ? { ...array, viaBot: false } : undefined;
}
