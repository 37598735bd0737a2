/**
 * One typed command, start to finish: parse → find → validate → resolve arrays → authorize → impact and gate
 * (or dry run) → run → render → audit. Every path ends in exactly one audit record.
 */
import { BotError, type ErrorCode, errorCode, InternalError, UserFacingError } from "../errors.js";
import type { ArrayClient } from "../flashblade/types.js";
import { lazyChild } from "../logger.js";
import { type AuditDecision, type AuditRecord, roleTrail, withRole } from "./audit.js";
import { assertRole, forbidden } from "./authz.js";
import type { BoundArgs } from "./bind-args.js";
import { type ChangeControl, changeControlFor, controlFields } from "./change-control/apply.js";
import { commandPath } from "./command-path.js";
import { type CommandActor, fanOutSafe } from "./define-command.js";
import { dryRunMessage } from "./dry-run.js";
import { withFormOffers } from "./form-offers.js";
import { openGate } from "./gate.js";
import { helpMessage } from "./help.js";
import { applyListView, takeListView } from "./list-view.js";
import type { Message } from "./message.js";
import { parseCommandLine, validateArgs } from "./parse.js";
import type { CommandInput, Effect } from "./pipeline-types.js";
import { redactCommandLine } from "./redact.js";
import type { CommandEntry } from "./registry.js";
import { assertPlannedAllowed } from "./request-guard.js";
import { type Role, roleAtLeast } from "./roles.js";
import { runFanOut, runOnArray } from "./run-command.js";
import type { Runtime } from "./runtime.js";
import { keyToOption } from "./schema-introspect.js";
import { canonicalPlan } from "./send-plan.js";
import { withSlowNotice } from "./slow-array.js";
import { isMultiSpec } from "./targets.js";

interface Trail {
  command: string;
  arrays: string[];
  args: Record<string, unknown>;
  decision: AuditDecision;
  pendingId?: string;
  sent?: string[];
  control?: ChangeControl;
  /** The access grant the requester's role came from (audit names it). */
  grant?: string;
}

export async function handleCommandText(
  base: Runtime,
  input: CommandInput,
  requestId: string,
): Promise<Effect[]> {
  const { actor } = input;
  const roles = roleTrail(base.access, actor.userId);
  const rt: Runtime = { ...base, access: roles.access };
  const started = rt.deps.now();
  const log = lazyChild(rt.log, { reqId: requestId, user: actor.userId, channel: actor.channelId });
  const trail: Trail = { command: "unknown", arrays: [], args: {}, decision: "invalid" };
  const audit = (outcome: "ok" | "error", code?: ErrorCode) => {
    const rec: AuditRecord = {
      id: requestId,
      at: new Date(started).toISOString(),
      userId: actor.userId,
      ...(actor.displayName ? { displayName: actor.displayName } : {}),
      channelId: actor.channelId,
      arrays: trail.arrays,
      command: trail.command,
      // Redacted with the whole record by the auditor (one redaction for every output).
      args: trail.args,
      ...withRole(roles.role()),
      text: redactCommandLine(input.text),
      decision: trail.decision,
      ...(trail.pendingId ? { pendingId: trail.pendingId } : {}),
      ...(trail.sent ? { sent: trail.sent } : {}),
      ...controlFields(trail.control),
      ...(trail.grant ? { grant: trail.grant } : {}),
      outcome,
      ...(code ? { errorCode: code } : {}),
      durationMs: rt.deps.now() - started,
    };
    return rt.auditor.record(rec);
  };
  try {
    const { effects, failedCode } = await dispatch(rt, input, requestId, trail, log);
    await audit(failedCode ? "error" : "ok", failedCode);
    return effects;
  } catch (err) {
    const code = errorCode(err);
    if (err instanceof BotError && err.denied) trail.decision = "denied";
    await audit("error", code);
    return rt.errorEffects(err, requestId, log);
  }
}

async function dispatch(
  rt: Runtime,
  input: CommandInput,
  requestId: string,
  trail: Trail,
  log: Runtime["log"],
): Promise<{ effects: Effect[]; failedCode?: ErrorCode }> {
  const { actor } = input;
  const parsed = parseCommandLine(input.text, rt.deps.registry, input.built === true);
  if (parsed.kind === "help") {
    trail.command = "help";
    trail.args = parsed.topic ? { topic: parsed.topic } : {};
    const role = await rt.access.bestRole(actor.userId, rt.targets.allowed(actor.channelId));
    trail.decision = role ? "allowed" : "denied";
    return { effects: [answer(helpMessage(rt.deps.registry, role, parsed.topic))] };
  }
  const { entry, bound } = parsed;
  trail.command = entry.id;
  trail.args = bound.raw;
  const view = takeListView(entry.command, bound, isMultiSpec(bound.array));
  const args = validateArgs(entry, withGlobalOptions(entry, bound));
  trail.args = bound.public ? { ...args, public: true } : args;
  const cmd = entry.command;
  if (bound.dryRun && !cmd.impact) {
    throw new UserFacingError(
      "DRY_RUN_NOT_APPLICABLE",
      `\`${commandPath(entry.id)}\` changes nothing, so --dry-run does not apply.`,
    );
  }
  const what = `\`${commandPath(entry.id)}\``;
  if (bound.public) checkPublic(rt, entry, actor.channelId);
  // --public turns a lookup's private answer into one the whole channel sees.
  const shown = (message: Message): Message =>
    applyListView(
      bound.public ? { ...message, visibility: "in_channel" } : message,
      view,
      rt.deps.config.table_rows,
    );
  const reply = (message: Message): Effect => answer(shown(message));

  if ((cmd.scope ?? "array") === "global") {
    if (bound.array !== undefined && !cmd.globalOptionsAsArgs?.array)
      throw new UserFacingError("ARRAY_NOT_APPLICABLE", `${what} covers every array; drop --array.`);
    if ((bound.reason !== undefined && !cmd.globalOptionsAsArgs?.reason) || bound.breakGlass !== undefined)
      throw new UserFacingError(
        "PARSE_BAD_VALUE",
        `${what} changes no array: --reason and --break-glass go with a change.`,
      );
    const role = await rt.access.bestRole(actor.userId, rt.targets.allowed(actor.channelId));
    trail.decision = "denied";
    assertRole(what, cmd.role, role);
    trail.decision = "allowed";
    const ctx = rt.contextFor(undefined, { ...actor, role: role as Role }, requestId, log);
    const ran = await runOnArray(rt, entry, args, ctx, undefined);
    // Cards the command asked to post (an access request's) go out with its answer.
    return { effects: [...(ctx.control?.outbox ?? []), reply(ran)] };
  }

  const clients = rt.targets.resolve(bound.array, actor.channelId);
  trail.arrays = clients.map((c) => c.name);
  if (!cmd.impact && !fanOutSafe(cmd) && (clients.length > 1 || isMultiSpec(bound.array))) {
    const first = cmd.positional?.[0];
    throw new UserFacingError(
      "ONE_ARRAY_ONLY",
      `${what} names one object${first ? ` by its <${keyToOption(first)}>` : ""}, which means something different on each array, so it runs on one array at a time; pick one with --array <name>.`,
    );
  }
  if (cmd.impact && clients.length > 1) {
    throw new UserFacingError(
      "ONE_ARRAY_ONLY",
      `${what} changes an array, so it runs on one array at a time; pick one with --array <name>.`,
    );
  }
  const targets = await authorize(rt, entry, actor, clients, trail);
  const first = targets[0];
  if (!first) throw new UserFacingError("ARRAY_REQUIRED", "No array to run on.");
  if (targets.length > 1) {
    const ran = await runFanOut(rt, entry, args, targets, requestId, log);
    const effect: Effect = {
      kind: "reply",
      message: shown(ran.message),
      ...(ran.later ? { later: ran.later.then(shown) } : {}),
    };
    return { effects: [effect], ...(ran.failedCode ? { failedCode: ran.failedCode } : {}) };
  }
  const ctx = rt.contextFor(
    first.client,
    first.actor,
    requestId,
    lazyChild(log, { array: first.client.name }),
  );
  if (!cmd.impact) {
    if (bound.reason !== undefined || bound.breakGlass !== undefined)
      throw new UserFacingError(
        "PARSE_BAD_VALUE",
        `${what} reads, it changes nothing: --reason and --break-glass go with a change.`,
      );
    // A slow array gets a "slow" answer at the fan-out deadline, and the real one edited in when it comes.
    const run = runOnArray(rt, entry, args, ctx, undefined);
    const ran = await withSlowNotice(rt, first.client.name, run, requestId, log);
    // A list offers the forms of its noun that the person may use there (Create, Change); faces decide to show them.
    const offer = (m: Message) =>
      withFormOffers(rt.deps.registry, entry, first.actor.role, first.client.name, shown(m));
    if (!ran.later) return { effects: [answer(offer(ran.message))] };
    const effect: Effect = { kind: "reply", message: shown(ran.message), later: ran.later.then(offer) };
    return { effects: [effect], failedCode: "ARRAY_DEADLINE" };
  }

  const impact = await cmd.impact(args, ctx);
  const given = { reason: bound.reason, breakGlass: bound.breakGlass };
  // What the card will show must be allowed to the requester before it is shown, not only when it is sent.
  assertPlannedAllowed(impact.requests, first.actor.role, first.client.name);
  trail.sent = canonicalPlan(impact, first.client.name);
  const cls = cmd.destructive?.(args, impact) ?? null;
  if (cls && !cmd.gateClasses?.includes(cls))
    throw new InternalError(
      "GATE_CLASS_UNDECLARED",
      `${entry.id} returned class ${cls}, not in its gateClasses`,
    );
  // A command that takes secrets waits for its requester to type them privately, as its confirmation.
  const secrets = cmd.secrets?.(args) ?? [];
  if (bound.dryRun) {
    trail.decision = "dry_run";
    const gate = cls ? { cls, policy: rt.deps.config.destructive[cls] } : undefined;
    return { effects: [reply(await dryRunMessage(entry, impact, first.client, gate, secrets))] };
  }
  // A change whose request or history the store cannot record (a full data volume) is refused before any of it
  // reaches the array.
  rt.deps.assertStoreWritable?.();
  // Freezes and approval rules (src/core/change-control/), before any card: a refusal here sends nothing.
  const control = await changeControlFor(rt, {
    entry,
    cls: cls ?? undefined,
    client: first.client,
    actor,
    ...given,
  });
  trail.control = control;
  // An assistant's or a workflow step's change always waits for a person (src/core/gate.ts), whatever its class;
  // so does one an approval rule covers, or one breaking glass through a freeze.
  const ruled = control.rule !== undefined || control.breakGlass !== undefined;
  if (cls || secrets.length > 0 || ruled || actor.kind === "assistant" || actor.kind === "workflow") {
    trail.decision = "denied";
    const gate = await openGate(rt, {
      entry,
      args,
      actor,
      requestId,
      client: first.client,
      impact,
      ...(cls ? { cls } : {}),
      ...(secrets.length > 0 ? { secrets } : {}),
      commandText: redactCommandLine(input.text.trim()),
      control,
    });
    trail.decision = "pending";
    trail.pendingId = gate.record.id;
    return { effects: gate.effects };
  }
  // A change that needs no gate still announces its result in the channel, whatever its render chose; an
  // answer holding a secret (a new access key) goes to the requester alone.
  const result = await runOnArray(rt, entry, args, ctx, impact);
  if (result.secret) return { effects: [reply({ ...result, visibility: "ephemeral", attachments: [] })] };
  return { effects: [reply({ ...result, visibility: "in_channel" })] };
}

/** Every target must allow the command; the first refusal names the array and the role needed. */
async function authorize(
  rt: Runtime,
  entry: CommandEntry,
  actor: CommandInput["actor"],
  clients: readonly ArrayClient[],
  trail: Trail,
): Promise<{ client: ArrayClient; actor: CommandActor }[]> {
  const out: { client: ArrayClient; actor: CommandActor }[] = [];
  for (const client of clients) {
    const role = await rt.access.roleOn(actor.userId, client);
    if (!roleAtLeast(role, entry.command.role)) {
      trail.decision = "denied";
      throw forbidden(`\`${commandPath(entry.id)}\``, entry.command.role, role, client.name);
    }
    out.push({ client, actor: { ...actor, role: role as Role } });
    const grant = await rt.access.grantBehind?.(actor.userId, client);
    if (grant) trail.grant = grant;
  }
  trail.decision = "allowed";
  return out;
}

function answer(message: Message): Effect {
  return { kind: "reply", message };
}

/** `--public` is for lookups, in channels whose configuration allows answers everyone sees. */
function checkPublic(rt: Runtime, entry: CommandEntry, channelId: string): void {
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
function withGlobalOptions(entry: CommandEntry, bound: BoundArgs): Record<string, unknown> {
  const own = entry.command.globalOptionsAsArgs;
  if (!own) return bound.raw;
  return {
    ...bound.raw,
    ...(own.array && bound.array !== undefined ? { [own.array]: bound.array } : {}),
    ...(own.reason && bound.reason !== undefined ? { [own.reason]: bound.reason } : {}),
  };
}
