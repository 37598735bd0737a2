/**
 * Running a command once it is allowed: on one array, or fanned out in parallel over several with one combined
 * answer and a line per array that failed. Results render through the command's pure `render`.
 */

import { type ErrorCode, errorCode, InternalError, isUserFacing } from "../../errors.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { type Logger, lazyChild } from "../../logger.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import type { CommandActor, CommandContext, FollowUp, Impact } from "../catalogue/define-command.js";
import type { CommandEntry } from "../catalogue/registry.js";
import { ACTIONS } from "../context/pipeline-deps.js";
import type { Runtime } from "../pipeline/runtime.js";
import {
  type Block,
  type Button,
  botText,
  type Message,
  type PartialError,
  rich,
} from "../presentation/message.js";
import { withPartial } from "../presentation/partial.js";
import { commandPath } from "../words/command-path.js";
import { countOf } from "../words/units.js";
import { nothingPlanned, sendPlan } from "./send-plan.js";
import { DEFAULT_FAN_OUT_DEADLINE_MS, raceDeadline } from "./slow-array.js";

export interface Ran {
  message: Message;
  /** Error code of the first failed array, when any failed. */
  failedCode?: ErrorCode;
  /** True when every array failed. */
  allFailed: boolean;
}

/** Runs on one array and renders; each follow-up offer (Recover) is stored and added as a button. */
export async function runOnArray(
  rt: Runtime,
  entry: CommandEntry,
  args: Record<string, unknown>,
  ctx: CommandContext,
  impact: Impact | undefined,
): Promise<Message> {
  const result = await produce(entry, args, ctx, impact);
  const rendered = withPartial(
    entry.command.render(result, args, rt.renderContext([ctx.arrayName])),
    ctx.partial ?? [],
  );
  const offered = entry.command.followUp?.(result, args);
  const offers = offered === undefined ? [] : "commandId" in offered ? [offered] : offered;
  if (offers.length === 0) return rendered;
  const now = rt.deps.now();
  const buttons: Button[] = [];
  for (const offer of offers) {
    const record = offerRecord(rt, ctx, offer, now);
    await rt.deps.store.create(record);
    buttons.push({
      actionId: ACTIONS.offer,
      label: offer.label,
      value: record.id,
      style: offer.style ?? "primary",
    });
  }
  // Slack allows 25 elements per actions block.
  const blocks: Block[] = [];
  for (let i = 0; i < buttons.length; i += 24)
    blocks.push({ type: "actions", buttons: buttons.slice(i, i + 24) });
  return { ...rendered, blocks: [...rendered.blocks, ...blocks] };
}

/**
 * The command's result: a change is its impact's planned requests, sent here and nowhere else; a read runs.
 */
async function produce(
  entry: CommandEntry,
  args: Record<string, unknown>,
  ctx: CommandContext,
  impact: Impact | undefined,
): Promise<unknown> {
  const cmd = entry.command;
  if (!cmd.impact) return readOf(entry)(args, ctx, undefined);
  if (!impact) throw new InternalError("NO_IMPACT", `${entry.id} ran without its impact`);
  if (impact.requests.length === 0) throw nothingPlanned(impact, ctx.arrayName);
  const fill = cmd.fill;
  const responses = await sendPlan(ctx, impact, fill && ((sent) => fill(args, ctx, sent)));
  return cmd.result ? cmd.result(responses, args, ctx, impact) : responses;
}

/** The `run` of a read; the registry guarantees every command without an impact has one. */
function readOf(entry: CommandEntry): NonNullable<CommandEntry["command"]["run"]> {
  const run = entry.command.run;
  if (!run) throw new InternalError("NO_RUN", `${entry.id} has neither an impact nor a run`);
  return run;
}

function offerRecord(rt: Runtime, ctx: CommandContext, offer: FollowUp, now: number): PendingRecord {
  return {
    id: rt.newId(),
    kind: "offer",
    status: "pending",
    commandId: offer.commandId,
    args: offer.args,
    commandText: `${commandPath(offer.commandId)}`,
    requester: {
      userId: ctx.actor.userId,
      ...(ctx.actor.displayName ? { displayName: ctx.actor.displayName } : {}),
    },
    channelId: ctx.actor.channelId,
    array: ctx.arrayName,
    requestId: ctx.requestId,
    policy: "offer",
    approvalsRequired: 0,
    approverRole: rt.deps.registry.byId(offer.commandId)?.command.role ?? "admin",
    approvals: [],
    fingerprint: "",
    state: {},
    display: { title: offer.label, summary: "", facts: [], warnings: [], requests: [] },
    createdAt: now,
    expiresAt: now + offer.validForMs,
    updatedAt: now,
    messages: [],
  };
}

type Outcome =
  | { array: string; ok: true; result: unknown; partial: readonly PartialError[] }
  | { array: string; ok: false; err: unknown };

/** Failed arrays named one per line; past this many, one line counts the rest. */
const FAILED_SHOWN = 3;
/** Names listed in a summary line before "and N more". */
const NAMES_SHOWN = 5;

/** "a, b, c", or "a, b, c, d, e and 995 more". */
function someNames(names: readonly string[]): string {
  if (names.length <= NAMES_SHOWN) return names.join(", ");
  return `${names.slice(0, NAMES_SHOWN).join(", ")} and ${names.length - NAMES_SHOWN} more`;
}

/** "10 s", "0.5 s": the deadline as people read it. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Runs a read command on every target in parallel and combines the answers. One overall deadline: arrays that
 * have not answered by then are named ("fb-lab-2 did not answer within 10 s") and the answer goes out with
 * what arrived; `later` then resolves to the full answer once every array has answered or failed.
 */
export async function runFanOut(
  rt: Runtime,
  entry: CommandEntry,
  args: Record<string, unknown>,
  targets: readonly { client: ArrayClient; actor: CommandActor }[],
  requestId: string,
  log: Logger,
): Promise<Ran & { later?: Promise<Message> }> {
  const deadlineMs = rt.deps.config.fan_out_deadline ?? DEFAULT_FAN_OUT_DEADLINE_MS;
  const settled = new Map<string, Outcome>();
  const all = Promise.all(
    targets.map(async ({ client, actor }): Promise<void> => {
      const ctx = rt.contextFor(
        client,
        actor,
        requestId,
        lazyChild(log, { array: client.name }),
        targets.length,
      );
      try {
        settled.set(client.name, {
          array: client.name,
          ok: true,
          result: await readOf(entry)(args, ctx, undefined),
          partial: ctx.partial ?? [],
        });
      } catch (err) {
        if (!isUserFacing(err))
          log.error({ err, array: client.name, requestId }, "array failed during fan-out");
        settled.set(client.name, { array: client.name, ok: false, err });
      }
    }),
  );
  const names = targets.map((t) => t.client.name);
  const inTime =
    (await raceDeadline(
      rt,
      deadlineMs,
      all.then(() => true),
    )) === true;
  const now = combine(rt, entry, args, names, new Map(settled), requestId, deadlineMs);
  if (inTime) return now;
  const later = all.then(
    () => combine(rt, entry, args, names, settled, requestId, deadlineMs).message,
    (err: unknown) => {
      log.error({ err, requestId }, "late fan-out answers could not be combined");
      return now.message;
    },
  );
  return { ...now, later };
}

/** One answer from the outcomes so far; arrays without one are named as late. */
function combine(
  rt: Runtime,
  entry: CommandEntry,
  args: Record<string, unknown>,
  names: readonly string[],
  settled: ReadonlyMap<string, Outcome>,
  requestId: string,
  deadlineMs: number,
): Ran {
  const ok: { array: string; result: unknown }[] = [];
  const partial: PartialError[] = [];
  const failed: { array: string; err: unknown }[] = [];
  const late: string[] = [];
  for (const name of names) {
    const o = settled.get(name);
    if (o === undefined) late.push(name);
    else if (o.ok) {
      ok.push({ array: name, result: o.result });
      partial.push(...o.partial);
    } else failed.push({ array: name, err: o.err });
  }
  const rctx = rt.renderContext(ok.map((o) => o.array));
  let blocks: Block[] = [];
  let text = "";
  let base: Message | undefined;
  if (ok.length === 1 || (ok.length > 1 && entry.command.merge)) {
    const result = ok.length === 1 ? ok[0]?.result : entry.command.merge?.(ok as never);
    base = entry.command.render(result, args, rctx);
    blocks = [...base.blocks];
    text = base.text;
  } else {
    for (const o of ok) {
      const m = entry.command.render(o.result, args, rt.renderContext([o.array]));
      blocks.push({ type: "header", text: `Array ${o.array}` }, ...m.blocks);
      text += `${text ? "\n" : ""}${o.array}: ${m.text}`;
    }
  }
  // A fleet's worth of silent arrays is a count, not a line each: a few named, then one line for the rest.
  for (const f of failed.slice(0, FAILED_SHOWN)) {
    const why = isUserFacing(f.err) ? f.err.message : `internal error (request ${requestId})`;
    blocks.push({ type: "context", text: rich`⚠ array ${f.array} failed: ${botText(why)}` });
  }
  const moreFailed = failed.slice(FAILED_SHOWN).map((f) => f.array);
  if (moreFailed.length > 0) {
    blocks.push({
      type: "context",
      text: rich`⚠ ${countOf(moreFailed.length, "more array")} failed: ${someNames(moreFailed)}.`,
    });
  }
  if (late.length > 0) {
    const who = late.length === 1 ? `${late[0]} did not` : `${countOf(late.length, "array")} did not`;
    const names = late.length === 1 ? "" : ` (${someNames(late)})`;
    blocks.push({
      type: "context",
      text: rich`⏳ ${who} answer within ${seconds(deadlineMs)}${names}; ${late.length === 1 ? "its answer is" : "their answers are"} added here when they come.`,
    });
  }
  if (ok.length === 0) {
    text =
      late.length > 0
        ? `No array answered within ${seconds(deadlineMs)} (${someNames(late)} still working).`
        : `No array answered (${failed.length} failed).`;
  } else if (late.length > 0) {
    text += `\n${late.length === 1 ? late[0] : `${countOf(late.length, "array")} (${someNames(late)})`} did not answer within ${seconds(deadlineMs)}.`;
  }
  const firstFailed = failed[0];
  return {
    message: withPartial(
      {
        text,
        blocks,
        visibility: base?.visibility ?? entry.command.visibility ?? "ephemeral",
        ...(base?.attachments ? { attachments: base.attachments } : {}),
      },
      partial,
    ),
    ...(firstFailed
      ? { failedCode: errorCode(firstFailed.err) }
      : late.length > 0
        ? { failedCode: "ARRAY_DEADLINE" }
        : {}),
    allFailed: ok.length === 0,
  };
}
