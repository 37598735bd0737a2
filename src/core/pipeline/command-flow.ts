/**
 * One typed command, start to finish: parse → find → validate → resolve arrays → authorize → impact and gate
 * (or dry run) → run → render → audit. Every path ends in exactly one audit record.
 */
import { type ErrorCode, errorCode, InternalError, UserFacingError } from "../../errors.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { lazyChild } from "../../logger.js";
import { assertRole, forbidden } from "../access/authz.js";
import { type Role, roleAtLeast } from "../access/roles.js";
import { dryRunMessage } from "../approvals/dry-run.js";
import { openGate } from "../approvals/gate.js";
import { type AuditDecision, auditRecord, decidedAs, decisionOf, roleTrail } from "../audit/audit.js";
import { type CommandActor, fanOutSafe } from "../catalogue/define-command.js";
import { withFormOffers } from "../catalogue/form-offers.js";
import { helpMessage } from "../catalogue/help.js";
import type { CommandEntry } from "../catalogue/registry.js";
import { type ChangeControl, changeControlFor, controlFields } from "../change-control/apply.js";
import type { CommandInput, Effect } from "../context/pipeline-types.js";
import { applyListView, takeListView } from "../presentation/list-view.js";
import type { Message } from "../presentation/message.js";
import { redactCommandLine } from "../presentation/redact.js";
import { assertPlannedAllowed } from "../requests/request-guard.js";
import { runFanOut, runOnArray } from "../requests/run-command.js";
import { canonicalPlan, inContext } from "../requests/send-plan.js";
import { withSlowNotice } from "../requests/slow-array.js";
import { isMultiSpec } from "../requests/targets.js";
import type { BoundArgs } from "../words/bind-args.js";
import { commandPath } from "../words/command-path.js";
import { keyToOption } from "../words/schema-introspect.js";
import { checkPublic, withGlobalOptions } from "./command-options.js";
import { parseCommandLine, validateArgs } from "./parse.js";
import type { Runtime } from "./runtime.js";

/** What is known of the request so far, for its record whichever way it ends (the decision is not among them). */
interface Trail {
  command: string;
  arrays: string[];
  args: Record<string, unknown>;
  sent?: string[];
  control?: ChangeControl;
  /** The access grant the requester's role came from (audit names it). */
  grant?: string;
}

/** How a request that did not fail ended: its answer, and the decision its record carries. */
interface Dispatched {
  effects: Effect[];
  decision: AuditDecision;
  failedCode?: ErrorCode;
  pendingId?: string;
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
  const trail: Trail = { command: "unknown", arrays: [], args: {} };
  const audit = (decision: AuditDecision, code?: ErrorCode, pendingId?: string) =>
    rt.auditor.record(
      auditRecord({
        id: requestId,
        by: actor,
        started,
        ended: rt.deps.now(),
        arrays: trail.arrays,
        command: trail.command,
        args: trail.args,
        role: roles.role(),
        text: redactCommandLine(input.text),
        decision,
        pendingId,
        sent: trail.sent,
        ...controlFields(trail.control),
        grant: trail.grant,
        outcome: code ? "error" : "ok",
        errorCode: code,
      }),
    );
  try {
    const done = await dispatch(rt, input, requestId, trail, log);
    await audit(done.decision, done.failedCode, done.pendingId);
    return done.effects;
  } catch (err) {
    // A failure before any decision was reached is an invalid request (it did not parse, validate or resolve).
    const { decision, error } = decisionOf(err, "invalid");
    await audit(decision, errorCode(error));
    return rt.errorEffects(error, requestId, log);
  }
}

async function dispatch(
  rt: Runtime,
  input: CommandInput,
  requestId: string,
  trail: Trail,
  log: Runtime["log"],
): Promise<Dispatched> {
  const { actor } = input;
  const parsed = parseCommandLine(input.text, rt.deps.registry, input.built === true);
  if (parsed.kind === "help") {
    trail.command = "help";
    trail.args = parsed.topic ? { topic: parsed.topic } : {};
    const role = await rt.access.bestRole(actor.userId, rt.targets.allowed(actor.channelId));
    return {
      effects: [answer(helpMessage(rt.deps.registry, role, parsed.topic))],
      decision: role ? "allowed" : "denied",
    };
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
    assertRole(what, cmd.role, role);
    return decidedAs("allowed", async () => {
      const ctx = rt.contextFor(undefined, { ...actor, role: role as Role }, requestId, log);
      const ran = await runOnArray(rt, entry, args, ctx, undefined);
      // Cards the command asked to post (an access request's) go out with its answer.
      return { effects: [...(ctx.control?.outbox ?? []), reply(ran)], decision: "allowed" };
    });
  }

  // A name no configured array has may be a member of one's fleet: learned from the fleets before resolving.
  if (bound.array !== undefined) await rt.deps.pool.discover?.(bound.array);
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
  // Authorized: a failure from here on is recorded as allowed (unless a step below says otherwise).
  return decidedAs("allowed", () =>
    carryOut(rt, input, requestId, trail, log, { entry, bound, args, shown, targets }),
  );
}

/** An authorized command on its arrays: read, dry run, gate, or change at once. */
async function carryOut(
  rt: Runtime,
  input: CommandInput,
  requestId: string,
  trail: Trail,
  log: Runtime["log"],
  req: {
    entry: CommandEntry;
    bound: BoundArgs;
    args: Record<string, unknown>;
    shown: (m: Message) => Message;
    targets: { client: ArrayClient; actor: CommandActor }[];
  },
): Promise<Dispatched> {
  const { actor } = input;
  const { entry, bound, args, shown, targets } = req;
  const cmd = entry.command;
  const what = `\`${commandPath(entry.id)}\``;
  const reply = (message: Message): Effect => answer(shown(message));
  const first = targets[0];
  if (!first) throw new UserFacingError("ARRAY_REQUIRED", "No array to run on.");
  if (targets.length > 1) {
    const ran = await runFanOut(rt, entry, args, targets, requestId, log);
    const effect: Effect = {
      kind: "reply",
      message: shown(ran.message),
      ...(ran.later ? { later: ran.later.then(shown) } : {}),
    };
    return {
      effects: [effect],
      decision: "allowed",
      ...(ran.failedCode ? { failedCode: ran.failedCode } : {}),
    };
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
    if (!ran.later) return { effects: [answer(offer(ran.message))], decision: "allowed" };
    const effect: Effect = { kind: "reply", message: shown(ran.message), later: ran.later.then(offer) };
    return { effects: [effect], decision: "allowed", failedCode: "ARRAY_DEADLINE" };
  }

  const impact = await inContext(await cmd.impact(args, ctx), first.client);
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
    const gate = cls ? { cls, policy: rt.deps.config.destructive[cls] } : undefined;
    const shownPlan = await decidedAs("dry_run", () =>
      dryRunMessage(entry, impact, first.client, gate, secrets),
    );
    return { effects: [reply(shownPlan)], decision: "dry_run" };
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
  // An assistant's or a workflow step's change always waits for a person (src/core/approvals/gate.ts), whatever its class;
  // so does one an approval rule covers, or one breaking glass through a freeze.
  const ruled = control.rule !== undefined || control.breakGlass !== undefined;
  if (cls || secrets.length > 0 || ruled || actor.kind === "assistant" || actor.kind === "workflow") {
    // A gate that refuses the request (its class turned off, a secret no one may approve) denies it.
    const gate = await decidedAs("denied", () =>
      openGate(rt, {
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
      }),
    );
    return { effects: gate.effects, decision: "pending", pendingId: gate.record.id };
  }
  // A change that needs no gate still announces its result in the channel, whatever its render chose; an
  // answer holding a secret (a new access key) goes to the requester alone.
  const result = await runOnArray(rt, entry, args, ctx, impact);
  if (result.secret)
    return { effects: [reply({ ...result, visibility: "ephemeral", attachments: [] })], decision: "allowed" };
  return { effects: [reply({ ...result, visibility: "in_channel" })], decision: "allowed" };
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
    if (!roleAtLeast(role, entry.command.role))
      throw forbidden(`\`${commandPath(entry.id)}\``, entry.command.role, role, client.name);
    out.push({ client, actor: { ...actor, role: role as Role } });
    const grant = await rt.access.grantBehind?.(actor.userId, client);
    if (grant) trail.grant = grant;
  }
  return out;
}

function answer(message: Message): Effect {
  return { kind: "reply", message };
}
