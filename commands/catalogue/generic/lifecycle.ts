/**
 * The lifecycle trait's verbs: destroy (recoverable), recover and eradicate (permanent, typed name) for any
 * resource whose objects are destroyed before they are gone. The words, refusals, classes, roles and requests
 * are the same for every such resource; what differs (facts of the surroundings, a destroying request that
 * turns protocols off, what recovering brings back) comes from the resource's hooks (spec.ts `Lifecycle`).
 */
import { z } from "zod";
import { objectName } from "../../../src/core/arg-types.js";
import { commandId } from "../../../src/core/command-path.js";
import {
  type CommandContext,
  type CommandDefinition,
  defineCommand,
  type FollowUp,
  type Impact,
  type PlannedRequest,
} from "../../../src/core/define-command.js";
import { rich } from "../../../src/core/message.js";
import { formatDuration } from "../../../src/core/units.js";
import { UserFacingError } from "../../../src/errors.js";
import { versionTooOld } from "../../../src/flashblade/errors.js";
import { eq } from "../../../src/flashblade/filter.js";
import { plan } from "../../../src/flashblade/resources/core.js";
import type { HttpMethod } from "../../../src/rest-spec/endpoints.js";
import { atLeast, findEndpoint } from "../../../src/rest-spec/versions.js";
import { done } from "../../shared/done.js";
import { notFoundError } from "../../shared/found.js";
import { itemsOf } from "../../shared/plan.js";
import type { Lifecycle, LifecycleItem, NounSpec } from "../spec.js";

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

/** The words of one noun: its kind in targets ("file system") and the word before a name in answers. */
function wordsOf(n: LifecycleNoun) {
  const title = n.lifecycle.title ?? n.noun;
  const called = n.lifecycle.called ?? title;
  return { title, called: called ? `${called} ` : "" };
}

/** The query that selects one object: `names=[x]`, or `name=x` where the endpoint takes one (file systems). */
function selectOne(method: HttpMethod, path: string, name: string): Record<string, string | string[]> {
  const params = findEndpoint(method, path)?.params ?? {};
  return "names" in params ? { names: [name] } : { name };
}

/** The first version with both the PATCH and the DELETE of the path, i.e. with `destroyed` (fs: 1.1). */
async function requireLifecycle(n: LifecycleNoun, verb: string, ctx: CommandContext): Promise<void> {
  const since = (["PATCH", "DELETE"] as const)
    .map((m) => findEndpoint(m, n.path)?.since ?? "1.0")
    .reduce((a, b) => (atLeast(a, b) ? a : b));
  const version = await ctx.array.version();
  if (!atLeast(version, since)) throw versionTooOld(ctx.arrayName, version, since, `\`${n.noun} ${verb}\``);
}

async function readOne(n: LifecycleNoun, ctx: CommandContext, name: string) {
  if (n.lifecycle.read) return n.lifecycle.read(ctx, name);
  const page = await ctx.array.get<LifecycleItem>(n.path, { query: { filter: eq("name", name) } });
  // Names compare case-insensitively on the array: the exact one is picked here.
  return page.items.find((x) => x.name === name);
}

/** The object, or NOT_FOUND saying where to look, with the nearest names. */
async function requireOne(n: LifecycleNoun, ctx: CommandContext, name: string): Promise<LifecycleItem> {
  const found = await readOne(n, ctx, name);
  if (found) return found;
  const hint = n.lifecycle.notFoundHint ?? `List them with /array ${n.noun} list --array ${ctx.arrayName}.`;
  throw await notFoundError(
    ctx,
    n.path,
    name,
    `There is no ${wordsOf(n).title} named "${name}" on array ${ctx.arrayName}. ${hint}`,
  );
}

const nameArgs = (n: LifecycleNoun) =>
  z.object({ name: objectName(`${wordsOf(n).title} name`).describe(`the ${wordsOf(n).title}`) });

function common(n: LifecycleNoun, verb: "destroy" | "recover" | "eradicate") {
  return {
    verb,
    summary: n.lifecycle.summaries[verb],
    examples: n.lifecycle.examples[verb].map((e) => `${n.noun} ${verb} ${e}`),
    visibility: "in_channel" as const,
    positional: ["name"] as const,
    args: nameArgs(n),
  };
}

function destroyCommand(n: LifecycleNoun): CommandDefinition {
  const { title, called } = wordsOf(n);
  return defineCommand({
    ...common(n, "destroy"),
    role: "operator",
    endpoints: [`PATCH ${n.path} {destroyed: true}`],
    async impact(a, ctx): Promise<Impact> {
      await requireLifecycle(n, "destroy", ctx);
      const item = await requireOne(n, ctx, a.name);
      if (item.destroyed)
        throw new UserFacingError(
          "ALREADY_DESTROYED",
          `${a.name} is already destroyed. Recover it with /array ${n.noun} recover ${a.name}, or eradicate it with /array ${n.noun} eradicate ${a.name}.`,
        );
      const view = await n.lifecycle.view(ctx, item);
      const stops = n.lifecycle.stops ? `: ${n.lifecycle.stops}` : "";
      const request: PlannedRequest =
        view.destroy ?? plan("PATCH", n.path, selectOne("PATCH", n.path, a.name), { destroyed: true });
      return {
        target: `${title} ${a.name}`,
        summary: rich`Destroys ${called}*${a.name}* on ${ctx.arrayName}${stops}. It can be recovered until the array eradicates it.`,
        facts: view.facts,
        warnings: view.warnings ?? [],
        state: view.state,
        requests: [request],
      };
    },
    destructive: () => "destroy",
    gateClasses: ["destroy"],
    result: (responses, a, ctx): Answered =>
      itemsOf(ctx, responses, answered)[0] ?? { name: a.name, time_remaining: undefined },
    // The Recover button runs the recover verb for as long as the array keeps the object.
    followUp: (obj): FollowUp => ({
      label: `Recover ${obj.name}`,
      commandId: commandId(n.noun, "recover"),
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
}

function recoverCommand(n: LifecycleNoun): CommandDefinition {
  const { title, called } = wordsOf(n);
  return defineCommand({
    ...common(n, "recover"),
    role: "operator",
    endpoints: [`PATCH ${n.path} {destroyed: false}`],
    async impact(a, ctx): Promise<Impact> {
      await requireLifecycle(n, "recover", ctx);
      const item = await readOne(n, ctx, a.name);
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
      const back = n.lifecycle.recovers?.(item).impact ?? "";
      return {
        target: `${title} ${a.name}`,
        summary: rich`Recovers ${called}*${a.name}* on ${ctx.arrayName}${back}.`,
        facts: [],
        warnings: [],
        state: n.lifecycle.recoverState?.(item) ?? { exists: true, destroyed: true },
        requests: [plan("PATCH", n.path, selectOne("PATCH", n.path, a.name), { destroyed: false })],
      };
    },
    result: (responses, a, ctx): LifecycleItem =>
      (itemsOf(ctx, responses, answered)[0] as LifecycleItem | undefined) ?? { name: a.name },
    render(item, _a, rctx) {
      const on = rctx.arrays[0] ?? "?";
      const back = n.lifecycle.recovers?.(item).done ?? "";
      return done(
        `Recovered ${called}${item.name} on ${on}.`,
        rich`Recovered ${called}*${item.name}* on ${on}${back}.`,
      );
    },
  });
}

function eradicateCommand(n: LifecycleNoun): CommandDefinition {
  const { title, called } = wordsOf(n);
  return defineCommand({
    ...common(n, "eradicate"),
    // The access policy's role for a DELETE of these paths.
    role: "admin",
    endpoints: [`DELETE ${n.path}`],
    async impact(a, ctx): Promise<Impact> {
      await requireLifecycle(n, "eradicate", ctx);
      const item = await requireOne(n, ctx, a.name);
      // On the recheck after an approval, an object recovered in the meantime is a different story from
      // asking too early.
      if (!item.destroyed)
        throw new UserFacingError(
          "NOT_DESTROYED",
          ctx.recheck
            ? `${a.name} is not destroyed any more: it was recovered since this was requested, so it was not eradicated.`
            : `${a.name} is not destroyed. Destroy it first with /array ${n.noun} destroy ${a.name}; it can be eradicated afterwards.`,
        );
      const view = await n.lifecycle.view(ctx, item);
      return {
        target: `${title} ${a.name}`,
        summary: rich`Eradicates ${called}*${a.name}* on ${ctx.arrayName}. This is permanent: it cannot be recovered afterwards.`,
        facts: view.facts,
        warnings: [rich`Permanent: ${view.lost}`],
        state: view.state,
        requests: [plan("DELETE", n.path, selectOne("DELETE", n.path, a.name))],
        typeToConfirm: a.name,
      };
    },
    destructive: () => "eradicate",
    gateClasses: ["eradicate"],
    result: (_responses, a) => ({ name: a.name }),
    render({ name }, _a, rctx) {
      const on = rctx.arrays[0] ?? "?";
      return done(
        `Eradicated ${called}${name} on ${on}.`,
        rich`Eradicated ${called}*${name}* on ${on}. It is gone for good.`,
      );
    },
  });
}

/** destroy, recover and eradicate of a noun with the trait, in the order help lists them. */
export function lifecycleCommands(n: LifecycleNoun): CommandDefinition[] {
  return [destroyCommand(n), recoverCommand(n), eradicateCommand(n)];
}
