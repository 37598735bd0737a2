/**
 * A change to one object named by one positional word that plans a single request on its collection
 * (`?names=<name>`): what such commands share, so each says only what is its own (the check it reads first,
 * the words of its impact and of its answer). Object store accounts, users, virtual hosts and bucket
 * versioning are written with it.
 */
import type { z } from "zod";
import {
  type CommandContext,
  type CommandDefinition,
  type DestructiveClass,
  defineCommand,
  type Impact,
  type PlannedRequest,
} from "../../src/core/define-command.js";
import type { Role } from "../../src/core/roles.js";
import { done } from "./done.js";
import { planned } from "./plan.js";

/** What a named change's impact says; target and request are the factory's. Lists default to empty. */
export type NamedPlan = Pick<Impact, "summary"> & Partial<Pick<Impact, "facts" | "warnings" | "state">>;

export interface NamedChange<S extends z.ZodObject> {
  verb: string;
  summary: string;
  examples: readonly string[];
  role: Role;
  replaces?: readonly string[];
  args: S;
  /** The argument holding the object's name, typed first. */
  key: keyof z.input<S> & keyof z.output<S> & string;
  method: PlannedRequest["method"];
  path: string;
  /** The object's kind in prompts: "object store account" → "object store account media". */
  what: string;
  /** Reads what the change rests on (refusing with a UserFacingError) and words the impact. */
  plan(args: z.output<S>, ctx: CommandContext): Promise<NamedPlan>;
  /** The request's body, when it has one. */
  body?(args: z.output<S>): Record<string, unknown>;
  /** The class of harm; such a change waits at the gate. */
  cls?: DestructiveClass;
  /** The line posted when it is done. */
  answer(name: string, array: string, args: z.output<S>): string;
}

export function namedChange<S extends z.ZodObject>(c: NamedChange<S>): CommandDefinition<S, string> {
  const nameOf = (a: z.output<S>) => String(a[c.key]);
  const cls = c.cls;
  return defineCommand({
    verb: c.verb,
    summary: c.summary,
    examples: c.examples,
    role: c.role,
    ...(c.replaces ? { replaces: c.replaces } : {}),
    visibility: "in_channel",
    positional: [c.key],
    args: c.args,
    async impact(a, ctx): Promise<Impact> {
      const name = nameOf(a);
      const p = await c.plan(a, ctx);
      return {
        target: `${c.what} ${name}`,
        summary: p.summary,
        facts: p.facts ?? [],
        warnings: p.warnings ?? [],
        state: p.state ?? {},
        requests: [planned(c.method, c.path, { names: [name] }, c.body?.(a))],
      };
    },
    ...(cls ? { destructive: () => cls, gateClasses: [cls] } : {}),
    result: (_responses, a) => nameOf(a),
    render: (name, a, rctx) => done(c.answer(name, rctx.arrays[0] ?? "?", a)),
  });
}
