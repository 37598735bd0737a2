/**
 * The switch verbs of a catalogue entry (spec.ts `SwitchVerb`): each reads the object named by its word, refuses
 * when the field already has the verb's value, and plans the one PATCH that sets it. The sentences are the
 * entry's; the read, the refusals, the request and its declaration are the same for every switch.
 */
import { z } from "zod";
import {
  type CommandContext,
  type CommandDefinition,
  defineCommand,
  type Impact,
} from "../../../src/core/catalogue/define-command.js";
import { rich } from "../../../src/core/presentation/message.js";
import { objectName } from "../../../src/core/words/arg-types.js";
import { UserFacingError } from "../../../src/errors.js";
import { versionTooOld } from "../../../src/flashblade/errors.js";
import { eq } from "../../../src/flashblade/filter.js";
import { atLeast, findEndpoint } from "../../../src/rest-spec/versions.js";
import { done } from "../../shared/done.js";
import { planned } from "../../shared/plan.js";
import type { NounSpec, SwitchVerb } from "../spec.js";
import { type Args, selectorKey } from "./common.js";
import { type Item, valueAt } from "./values.js";

/** A template filled from the object as read: `{user.name}` → its field, "?" when absent. */
function said(template: string, values: Readonly<Record<string, string>>, item?: Item): string {
  return template.replace(/\{([\w.]+)\}/g, (_all, key: string) => {
    if (values[key] !== undefined) return values[key];
    const v = item ? valueAt(item, key) : undefined;
    return v === undefined || v === null ? "?" : String(v);
  });
}

function switchCommand(spec: NounSpec, s: SwitchVerb): CommandDefinition {
  const title = spec.title ?? spec.noun;
  const since = findEndpoint("PATCH", spec.path)?.since ?? "1.0";
  // The word is the entry's first selector's (`access-key disable <key>`), so buttons and tools name it alike.
  const word = selectorKey(spec.select?.[0]?.label ?? "name");
  /** The object called `name`, read whole by name (names compare case-insensitively on the array). */
  async function requireOne(ctx: CommandContext, name: string): Promise<Item> {
    const version = await ctx.array.version();
    if (!atLeast(version, since))
      throw versionTooOld(ctx.arrayName, version, since, `\`${spec.noun} ${s.verb}\``);
    const page = await ctx.array.get<Item>(spec.path, { query: { filter: eq("name", name) } });
    const item = page.items.find((x) => x["name"] === name);
    if (item) return item;
    throw new UserFacingError(
      "NOT_FOUND",
      `There is no ${title} ${name} on ${ctx.arrayName}. List them with \`/array ${spec.noun} list --array ${ctx.arrayName}\`.`,
    );
  }
  return defineCommand({
    verb: s.verb,
    summary: s.summary,
    examples: [`${spec.noun} ${s.verb} ${s.example}`],
    role: "operator",
    endpoints: [`PATCH ${spec.path} {${s.field}: ${String(s.value)}}`],
    visibility: "in_channel",
    positional: [word],
    args: z.object({ [word]: objectName(s.arg.what).describe(s.arg.help) }),
    ...(s.cls ? { destructive: () => s.cls ?? null, gateClasses: [s.cls] } : {}),
    async impact(a: Args, ctx): Promise<Impact> {
      const name = String(a[word]);
      const item = await requireOne(ctx, name);
      const words = { name, array: ctx.arrayName };
      if (valueAt(item, s.field) === s.value)
        throw new UserFacingError("NO_CHANGE", `${said(s.already, words, item)} Nothing was changed.`);
      const now = valueAt(item, s.field);
      return {
        target: `${title} ${name}`,
        summary: rich`${said(s.doing, words, item)}`,
        facts: [],
        warnings: s.warning ? [rich`${s.warning}`] : [],
        state: {
          [s.field]:
            typeof now === "boolean" || typeof now === "string" || typeof now === "number" ? now : null,
        },
        requests: [planned("PATCH", spec.path, { names: [name] }, { [s.field]: s.value })],
      };
    },
    result: (_responses, a: Args) => String(a[word]),
    render: (name, _a, rctx) => done(said(s.done, { name, array: rctx.arrays[0] ?? "?" })),
  });
}

/** The switch verbs of a catalogue entry, in the order it lists them. */
export function switchCommands(spec: NounSpec): CommandDefinition[] {
  return (spec.switches ?? []).map((s) => switchCommand(spec, s));
}
