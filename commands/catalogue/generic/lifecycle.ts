/**
 * The lifecycle trait's verbs: destroy (recoverable), recover and eradicate (permanent, typed name) for any
 * resource whose objects are destroyed before they are gone. The words, refusals, classes, roles and requests
 * are the same for every such resource; what differs (facts of the surroundings, a destroying request that
 * turns protocols off, what recovering brings back) comes from the resource's hooks (spec.ts `Lifecycle`).
 */
import { z } from "zod";
import {
  type CommandContext,
  type CommandDefinition,
  defineCommand,
  type FollowUp,
  type Impact,
  type PlannedRequest,
} from "../../../src/core/catalogue/define-command.js";
import { rich } from "../../../src/core/presentation/message.js";
import { objectName } from "../../../src/core/words/arg-types.js";
import { commandId } from "../../../src/core/words/command-path.js";
import { formatDuration } from "../../../src/core/words/units.js";
import { UserFacingError } from "../../../src/errors.js";
import { versionTooOld } from "../../../src/flashblade/errors.js";
import { eq } from "../../../src/flashblade/filter.js";
import { plan } from "../../../src/flashblade/resources/core.js";
import { atLeast, findEndpoint } from "../../../src/rest-spec/versions.js";
import { done } from "../../shared/done.js";
import { notFoundError } from "../../shared/found.js";
import { itemsOf } from "../../shared/plan.js";
import type { Lifecycle, LifecycleItem, LifecycleVerb, NounSpec } from "../spec.js";

/** A noun with the trait: a catalogue entry, or a hand-written resource's (fs, snapshot) in the same shape. */
export type LifecycleNoun = Pick<NounSpec, "noun" | "path"> & { lifecycle: Lifecycle };

/** How long the Recover button is offered when the array does not say how long the object is kept. */
const RECOVER_OFFER_MS = 24 * 3_600_000;

const answered = z.looseObject({ name: z.string(), time_remaining: z.number().nullish() });
type Answered = z.output<typeof answered>;

/** " It will be eradicated in 23 h." when the array says, else nothing. */
function eradicationNote(obj: Answered): string {
  return obj.time_remaining == null ? "" : ` It will be eradicated in ${formatDuration(obj.time_remaining)}.`;
}

/**
 * destroy, recover and eradicate of a noun with the trait, in the order help lists them. Each reads the object
 * first (the trait's `read`), refuses what its state does not allow, and plans one request on the noun's path.
 */
export function lifecycleCommands(n: LifecycleNoun): CommandDefinition[] {
  const { lifecycle: l, noun, path } = n;
  const title = l.title ?? noun;
  const word = l.called ?? title;
  const called = word ? `${word} ` : "";
  // The first version with both the PATCH and the DELETE of the path, i.e. with `destroyed` (fs: 1.1).
  const since = (["PATCH", "DELETE"] as const)
    .map((m) => findEndpoint(m, path)?.since ?? "1.0")
    .reduce((a, b) => (atLeast(a, b) ? a : b));
  /** The object as it is now, after the version check; undefined when the array has none by that name. */
  async function read(ctx: CommandContext, verb: string, name: string): Promise<LifecycleItem | undefined> {
    const version = await ctx.array.version();
    if (!atLeast(version, since)) throw versionTooOld(ctx.arrayName, version, since, `\`${noun} ${verb}\``);
    if (l.read) return l.read(ctx, name);
    const page = await ctx.array.get<LifecycleItem>(path, { query: { filter: eq("name", name) } });
    // Names compare case-insensitively on the array: the exact one is picked here.
    return page.items.find((x) => x.name === name);
  }
  /** The object, or NOT_FOUND saying where to look, with the nearest names. */
  async function requireOne(ctx: CommandContext, verb: string, name: string): Promise<LifecycleItem> {
    const found = await read(ctx, verb, name);
    if (found) return found;
    const hint = l.notFoundHint ?? `List them with /array ${noun} list --array ${ctx.arrayName}.`;
    const text = `There is no ${title} named "${name}" on array ${ctx.arrayName}. ${hint}`;
    throw await notFoundError(ctx, path, name, text);
  }
  /** The request on one object: `names=[x]`, or `name=x` where the endpoint takes one (file systems). */
  const request = (method: "PATCH" | "DELETE", name: string, body?: unknown): PlannedRequest =>
    plan(
      method,
      path,
      "names" in (findEndpoint(method, path)?.params ?? {}) ? { names: [name] } : { name },
      body,
    );
  const base = (verb: LifecycleVerb) => ({
    verb,
    summary: l.summaries[verb],
    examples: l.examples[verb].map((e) => `${noun} ${verb} ${e}`),
    visibility: "in_channel" as const,
    positional: ["name"] as const,
    args: z.object({ name: objectName(`${title} name`).describe(`the ${title}`) }),
  });

  const destroy = defineCommand({
    ...base("destroy"),
    role: "operator",
    endpoints: [`PATCH ${path} {destroyed: true}`],
    async impact(a, ctx): Promise<Impact> {
      const item = await requireOne(ctx, "destroy", a.name);
      if (item.destroyed)
        throw new UserFacingError(
          "ALREADY_DESTROYED",
          `${a.name} is already destroyed. Recover it with /array ${noun} recover ${a.name}, or eradicate it with /array ${noun} eradicate ${a.name}.`,
        );
      const view = await l.view(ctx, item);
      return {
        target: `${title} ${a.name}`,
        summary: rich`Destroys ${called}*${a.name}* on ${ctx.arrayName}${l.stops ? `: ${l.stops}` : ""}. It can be recovered until the array eradicates it.`,
        facts: view.facts,
        warnings: view.warnings ?? [],
        state: view.state,
        requests: [view.destroy ?? request("PATCH", a.name, { destroyed: true })],
      };
    },
    destructive: () => "destroy",
    gateClasses: ["destroy"],
    result: (responses, a, ctx): Answered => itemsOf(ctx, responses, answered)[0] ?? { name: a.name },
    // The Recover button runs the recover verb for as long as the array keeps the object.
    followUp: (obj): FollowUp => ({
      label: `Recover ${obj.name}`,
      commandId: commandId(noun, "recover"),
      args: { name: obj.name },
      validForMs: obj.time_remaining ?? RECOVER_OFFER_MS,
    }),
    render(obj, _a, rctx) {
      const on = rctx.arrays[0] ?? "?";
      const left = eradicationNote(obj);
      return done(
        `Destroyed ${called}${obj.name} on ${on}.${left}`,
        rich`Destroyed ${called}*${obj.name}* on ${on}.${left} It can be recovered until then.`,
      );
    },
  });

  const recover = defineCommand({
    ...base("recover"),
    role: "operator",
    endpoints: [`PATCH ${path} {destroyed: false}`],
    async impact(a, ctx): Promise<Impact> {
      const item = await read(ctx, "recover", a.name);
      if (!item)
        throw new UserFacingError(
          "NOT_FOUND",
          `There is no ${title} named "${a.name}" on ${ctx.arrayName} any more; if it was eradicated it cannot be recovered.`,
        );
      if (!item.destroyed)
        throw new UserFacingError(
          "NOT_DESTROYED",
          `${a.name} is not destroyed; there is nothing to recover.`,
        );
      return {
        target: `${title} ${a.name}`,
        summary: rich`Recovers ${called}*${a.name}* on ${ctx.arrayName}${l.recovers?.(item).impact ?? ""}.`,
        facts: [],
        warnings: [],
        state: { exists: true, destroyed: true },
        requests: [request("PATCH", a.name, { destroyed: false })],
      };
    },
    result: (responses, a, ctx) =>
      (itemsOf(ctx, responses, answered)[0] ?? { name: a.name }) as LifecycleItem,
    render(item, _a, rctx) {
      const on = rctx.arrays[0] ?? "?";
      const back = l.recovers?.(item).done ?? "";
      return done(
        `Recovered ${called}${item.name} on ${on}.`,
        rich`Recovered ${called}*${item.name}* on ${on}${back}.`,
      );
    },
  });

  const eradicate = defineCommand({
    ...base("eradicate"),
    // The access policy's role for a DELETE of these paths.
    role: "admin",
    endpoints: [`DELETE ${path}`],
    async impact(a, ctx): Promise<Impact> {
      const item = await requireOne(ctx, "eradicate", a.name);
      // On the recheck after an approval, an object recovered in the meantime is another story than asking early.
      if (!item.destroyed)
        throw new UserFacingError(
          "NOT_DESTROYED",
          ctx.recheck
            ? `${a.name} is not destroyed any more: it was recovered since this was requested, so it was not eradicated.`
            : `${a.name} is not destroyed. Destroy it first with /array ${noun} destroy ${a.name}; it can be eradicated afterwards.`,
        );
      const view = await l.view(ctx, item);
      return {
        target: `${title} ${a.name}`,
        summary: rich`Eradicates ${called}*${a.name}* on ${ctx.arrayName}. This is permanent: it cannot be recovered afterwards.`,
        facts: view.facts,
        warnings: [rich`Permanent: ${view.lost}`],
        state: view.state,
        requests: [request("DELETE", a.name)],
        typeToConfirm: a.name,
      };
    },
    destructive: () => "eradicate",
    gateClasses: ["eradicate"],
    result: (_responses, a) => a.name,
    render(name, _a, rctx) {
      const on = rctx.arrays[0] ?? "?";
      return done(
        `Eradicated ${called}${name} on ${on}.`,
        rich`Eradicated ${called}*${name}* on ${on}. It is gone for good.`,
      );
    },
  });
  return [destroy, recover, eradicate];
}
