/**
 * The generic changing verbs: create, update, set (before → after), delete, add/remove membership, and
 * changing actions. The impact reads the object first and plans the exact request; the pipeline sends that request,
 * so what was shown (dry run, confirmation, approval card) is what is sent.
 */
import type {
  CommandContext,
  CommandDefinition,
  DestructiveClass,
  Impact,
  PlannedRequest,
  StateValue,
} from "../../../src/core/catalogue/define-command.js";
import { type Block, type Field, message, type Rich, rich } from "../../../src/core/presentation/message.js";
import { UserFacingError } from "../../../src/errors.js";
import { eq } from "../../../src/flashblade/filter.js";
import { adaptBody } from "../../../src/flashblade/wire.js";
import { endpointRule } from "../../../src/rest-spec/policy.js";
import { atLeast, generationOf } from "../../../src/rest-spec/versions.js";
import {
  type Args,
  argsSchema,
  fill,
  headOf,
  nameOf,
  requireVersion,
  selectorQuery,
  targetOf,
} from "./common.js";
import type { VerbPlan } from "./derive.js";
import { endpointOf, only2x } from "./endpoint.js";
import { bodyOf, type FieldDef } from "./fields.js";
import { withLazyArgs } from "./lazy-args.js";
import { queryOptionValues } from "./query-options.js";
import { reachWarning } from "./reach.js";
import {
  askedSecrets,
  placeholderOf,
  secretPrompts,
  secretValues,
  withPlaceholders,
} from "./secret-fields.js";
import { fieldsOf, formatValue, type Item, labelOf, valueAt } from "./values.js";

const PAST: Record<string, string> = {
  create: "Created",
  update: "Updated",
  set: "Changed",
  delete: "Deleted",
  add: "Added",
  remove: "Removed",
};
const PRESENT: Record<string, string> = {
  create: "Creates",
  update: "Changes",
  set: "Changes",
  delete: "Deletes",
  add: "Adds",
  remove: "Removes",
};

const show = (v: unknown) => (v === undefined ? "(unset)" : JSON.stringify(v));

/**
 * The object as it is now, when the resource's own GET can read it with the same words; `readable` is false
 * when it cannot (another path, a version without the GET, selectors the GET does not take).
 */
async function current(
  p: VerbPlan,
  args: Args,
  ctx: CommandContext,
  version: string,
): Promise<{ readable: boolean; item?: Item }> {
  const get = endpointOf("GET", p.spec.path);
  // A 2.x read the policy keeps for admins (a factory-reset token, a connection key) is not read before a change:
  // the change declares only what it sends.
  if (p.spec.rest2 && endpointRule("GET", p.spec.path)?.role !== "viewer") return { readable: false };
  const query = selectorQuery(p, args);
  const getSince = get && (generationOf(version) === 2 ? get.op.v2?.since : get.op.v1?.since);
  if (!get || !getSince || !atLeast(version, getSince) || p.path !== p.spec.path) return { readable: false };
  if (Object.keys(query).some((k) => !(k in get.params))) return { readable: false };
  const page = await ctx.array.get<Item>(p.path, { query });
  const item = page.items[0];
  return item ? { readable: true, item } : { readable: true };
}

function fieldPath(f: FieldDef): string {
  return f.path.join(".");
}

/**
 * The object as it is now where the change rests on it (update, set, delete, remove; create when the resource
 * refuses an existing name), refusing what is missing or already there.
 */
async function objectBefore(
  p: VerbPlan,
  args: Args,
  ctx: CommandContext,
  version: string,
  target: string,
): Promise<Item | undefined> {
  const changes = p.kind === "update" || p.kind === "set";
  if (p.kind === "create" && p.spec.refuseExisting) {
    // A filter, not `names=`: asking for a name the array lacks is an error, not an empty page.
    const page = await ctx.array.get<Item>(p.spec.path, { query: { filter: eq("name", nameOf(p, args)) } });
    // Names compare case-insensitively on the array: the exact one is looked for here.
    if (page.items.some((x) => x["name"] === nameOf(p, args)))
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `${target.charAt(0).toUpperCase()}${target.slice(1)} already exists on ${ctx.arrayName}. Nothing was changed.`,
      );
    return undefined;
  }
  if (!changes && p.kind !== "delete" && p.kind !== "remove") return undefined;
  const read = await current(p, args, ctx, version);
  if (read.readable && read.item === undefined)
    throw new UserFacingError("NOT_FOUND", `There is no ${target} on array ${ctx.arrayName}.`);
  return read.item;
}

async function impactOf(p: VerbPlan, args: Args, ctx: CommandContext): Promise<Impact> {
  const version = await requireVersion(p, args, ctx);
  const target = targetOf(p, args);
  const body = bodyOf(p.fields, args);
  const asked = askedSecrets(p, args);
  const placeholders = withPlaceholders(body, asked);
  const request: PlannedRequest = { method: p.method as PlannedRequest["method"], path: p.path };
  const query = { ...selectorQuery(p, args), ...queryOptionValues(p.options, args) };
  if (Object.keys(query).length) request.query = query;
  // Field names renamed between versions are mapped where the client keeps every version difference.
  if (p.method !== "DELETE" && (Object.keys(body).length || p.method === "PATCH" || p.method === "PUT"))
    request.body = adaptBody(p.method, p.path, version, body);
  const facts: Field[] = [];
  const warnings: Rich[] = [];
  const state: Record<string, StateValue> = {};
  const rctx = { now: ctx.now(), timeZone: ctx.timeZone };
  const given = p.fields.filter((f) => args[f.key] !== undefined && !f.secret);
  const changes = p.kind === "update" || p.kind === "set" || (p.method === "PATCH" && p.kind === "action");

  // A query option given (replicate now, release) is itself the change, whatever the body holds.
  const bodiless =
    (only2x(p.endpoint) && p.endpoint.body === undefined) || p.options.some((o) => args[o.key] !== undefined);
  if (changes && given.length === 0 && asked.length === 0 && !bodiless)
    throw new UserFacingError(
      "NOTHING_TO_CHANGE",
      `Say what to change: ${[...p.fields, ...p.options].map((f) => `--${f.option}`).join(", ") || "(no field of it can be set from chat; use /array api)"}.`,
    );
  const before = await objectBefore(p, args, ctx, version, target);
  const hook = p.spec.precheck?.[p.kind];
  const view = hook
    ? await hook(ctx, { name: nameOf(p, args), args, ...(before ? { item: before } : {}) })
    : {};
  for (const f of given) {
    const path = fieldPath(f);
    const said = p.spec.valueWarnings?.[path]?.[String(args[f.key])];
    if (said) warnings.push(rich`${said}`);
  }

  if (changes) {
    let changed = 0;
    for (const f of given) {
      const path = fieldPath(f);
      const was = before ? valueAt(before, path) : undefined;
      const next = args[f.key];
      const same = JSON.stringify(was) === JSON.stringify(next);
      if (!same) changed++;
      const stops = p.spec.lastServer?.[path];
      if (stops && !same && !isEmpty(was) && isEmpty(next)) {
        state["removes_last_server"] = path;
        warnings.push(rich`This removes ${lastServerText(path, was)}: ${stops}.`);
      }
      state[path] = before ? show(was) : null;
      facts.push({
        label: labelOf(path),
        value: same
          ? rich`${formatValue(path, was, p.spec.units?.[path], rctx)} (unchanged)`
          : f.document
            ? rich`${JSON.stringify(next)}`
            : rich`${formatValue(path, was, p.spec.units?.[path], rctx)} → ${formatValue(path, next, p.spec.units?.[path], rctx)}`,
      });
    }
    // A secret cannot be compared with what the array holds (it never shows it), so asking for one is a change.
    if (before && changed === 0 && asked.length === 0 && !bodiless)
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change: ${target} already has those values.`,
      );
  } else {
    for (const f of given) {
      const path = fieldPath(f);
      facts.push({
        label: labelOf(path),
        value: rich`${formatValue(path, args[f.key], p.spec.units?.[path], rctx)}`,
      });
    }
    if (p.kind === "delete" || p.kind === "remove") {
      state["exists"] = before !== undefined;
      if (before && typeof before["id"] === "string") state["id"] = before["id"];
    }
  }
  for (const f of asked)
    facts.push({ label: labelOf(fieldPath(f)), value: rich`${placeholderOf(f, asked)}` });
  facts.push(...(view.facts ?? []));
  warnings.push(...(view.warnings ?? []));
  Object.assign(state, view.state);
  // Creating something new cannot cut the bot off; changing or removing what exists can.
  if (p.kind !== "create" && p.kind !== "add") {
    const reached = p.spec.reach ? (before ?? (await current(p, args, ctx, version)).item) : undefined;
    const warning = reachWarning(p.spec, reached, ctx.array.host, ctx.arrayName);
    if (warning) warnings.push(rich`${warning}`);
  }
  const verbText = PRESENT[p.verb] ?? PRESENT[p.kind] ?? `Runs ${p.verb} on`;
  return {
    target,
    summary: view.summary ?? rich`${verbText} ${target} on ${ctx.arrayName}.`,
    facts,
    warnings,
    state,
    requests: [request],
    ...(placeholders.length > 0 ? { placeholders } : {}),
  };
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** "every name server (10.21.0.53, 10.21.1.53)", "the only NTP server (time1)", "the SMTP relay (smtp1)". */
function lastServerText(path: string, was: unknown): string {
  const list = Array.isArray(was) ? was.map(String) : [String(was)];
  const what =
    path === "nameservers"
      ? "every name server"
      : path === "ntp_servers"
        ? list.length === 1
          ? "the only NTP server"
          : "every NTP server"
        : path === "relay_host"
          ? "the SMTP relay"
          : `every ${labelOf(path).toLowerCase()}`;
  return `${what} (${list.join(", ")})`;
}

/**
 * Emptying a service's last server is its own class; a class decided from the array's state is the resource's
 * hook's; anything else is the verb's.
 */
function classOf(p: VerbPlan, impact: Impact): DestructiveClass | null {
  if (impact.state["removes_last_server"]) return "remove_last_server";
  return p.spec.classFrom?.[p.kind]?.of(impact.state) ?? p.cls;
}

function classesOf(p: VerbPlan): DestructiveClass[] {
  const own = [...(p.cls ? [p.cls] : []), ...(p.spec.classFrom?.[p.kind]?.classes ?? [])];
  const canEmpty = (p.kind === "set" || p.kind === "update") && p.fields.some((f) => f.clearable);
  return canEmpty ? [...own, "remove_last_server"] : own;
}

export function changeCommand(p: VerbPlan): CommandDefinition {
  return withLazyArgs(() => argsSchema(p), {
    ...headOf(p),
    visibility: "in_channel",
    impact: (args: Args, ctx) => impactOf(p, args, ctx),
    ...(p.fields.some((f) => f.secret) ? { secrets: (args: Args) => secretPrompts(p, args) } : {}),
    // A change with no class is never gated, so it declares no destructive function at all.
    ...(p.cls || p.spec.classFrom?.[p.kind]
      ? { destructive: (_args: Args, impact: Impact) => classOf(p, impact), gateClasses: classesOf(p) }
      : {}),
    // Typed secrets fill their placeholders in the planned request; nothing else of it changes.
    fill: async (args: Args, ctx) => secretValues(askedSecrets(p, args), ctx.secrets),
    result: (responses, _args: Args, _ctx, impact) => ({
      target: impact.target,
      items: responses.flat() as Item[],
      facts: impact.facts,
    }),
    render(result, args: Args, rctx) {
      const array = rctx.arrays.join(", ");
      const answer = p.spec.answers?.[p.kind];
      const done = answer
        ? fill(answer, { ...args, name: nameOf(p, args), array })
        : `${PAST[p.verb] ?? PAST[p.kind] ?? `Ran ${p.verb} on`} ${result.target} on ${array}.`;
      const blocks: Block[] = [{ type: "section", text: rich`${done}` }];
      const item = result.items[0];
      // A create answers with what the array made, once: the headline names it, the object's fields follow, and
      // a planned fact is shown only when the object does not show the same field.
      const shown =
        item && p.kind === "create"
          ? fieldsOf(item)
              .filter((f) => f !== "name")
              .slice(0, 10)
          : [];
      const labels = new Set(shown.map((f) => labelOf(f).toLowerCase()));
      const facts = result.facts.filter((f) => !labels.has(f.label.toLowerCase()));
      if (facts.length) blocks.push({ type: "fields", fields: facts });
      if (item && shown.length > 0) {
        blocks.push({
          type: "fields",
          fields: shown.map((f) => ({
            label: labelOf(f),
            value: rich`${formatValue(f, valueAt(item, f), p.spec.units?.[f], rctx)}`,
          })),
        });
      }
      return message(done, blocks, { visibility: "in_channel" });
    },
  });
}
