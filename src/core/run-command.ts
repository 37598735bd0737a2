/**
 * Running a command once it is allowed: on one array, or fanned out in parallel over several with one combined
 * answer and a line per array that failed. Results render through the command's pure `render`.
 */
import { errorCode, isUserFacing } from "../errors.js";
import type { ArrayClient } from "../flashblade/types.js";
import type { Logger } from "../logger.js";
import type { CommandActor, CommandContext, FollowUp, Impact } from "./define-command.js";
import { type Block, type Button, type Message, rich } from "./message.js";
import type { PendingRecord } from "./pending-store.js";
import { ACTIONS } from "./pipeline-deps.js";
import type { CommandEntry } from "./registry.js";
import type { Runtime } from "./runtime.js";

export interface Ran {
  message: Message;
  /** Error code of the first failed array, when any failed. */
  failedCode?: string;
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
  const result = await entry.command.run(args, ctx, impact);
  const rendered = entry.command.render(result, args, rt.renderContext([ctx.arrayName]));
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

function offerRecord(rt: Runtime, ctx: CommandContext, offer: FollowUp, now: number): PendingRecord {
  return {
    id: rt.newId(),
    kind: "offer",
    status: "pending",
    commandId: offer.commandId,
    args: offer.args,
    commandText: `${offer.commandId.replace(".", " ")}`,
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

/** Runs a read command on every target in parallel and combines the answers. */
export async function runFanOut(
  rt: Runtime,
  entry: CommandEntry,
  args: Record<string, unknown>,
  targets: readonly { client: ArrayClient; actor: CommandActor }[],
  requestId: string,
  log: Logger,
): Promise<Ran> {
  const settled = await Promise.allSettled(
    targets.map(async ({ client, actor }) => {
      const ctx = rt.contextFor(client, actor, requestId, log.child({ array: client.name }));
      return { array: client.name, result: await entry.command.run(args, ctx, undefined) };
    }),
  );
  const ok: { array: string; result: unknown }[] = [];
  const failed: { array: string; err: unknown }[] = [];
  settled.forEach((s, i) => {
    const array = targets[i]?.client.name ?? "?";
    if (s.status === "fulfilled") ok.push(s.value);
    else failed.push({ array, err: s.reason });
  });
  for (const f of failed) {
    if (!isUserFacing(f.err))
      log.error({ err: f.err, array: f.array, requestId }, "array failed during fan-out");
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
  for (const f of failed) {
    const why = isUserFacing(f.err) ? f.err.message : `internal error (request ${requestId})`;
    blocks.push({ type: "context", text: rich`⚠ array ${f.array} failed: ${why}` });
  }
  if (ok.length === 0) text = `No array answered (${failed.length} failed).`;
  const firstFailed = failed[0];
  return {
    message: {
      text,
      blocks,
      visibility: base?.visibility ?? entry.command.visibility ?? "ephemeral",
      ...(base?.attachments ? { attachments: base.attachments } : {}),
    },
    ...(firstFailed ? { failedCode: errorCode(firstFailed.err) } : {}),
    allFailed: ok.length === 0,
  };
}
