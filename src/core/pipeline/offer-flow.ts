/**
 * Follow-up offers: the button that comes with a result (Recover after a destroy). Clicking it runs the
 * offered command for whoever clicks, if their role allows it, once.
 */

import { InternalError, UserFacingError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { assertRole } from "../access/authz.js";
import type { Role } from "../access/roles.js";
import { failClaimOnError, type Outcome } from "../approvals/execute-pending.js";
import { openGate } from "../approvals/gate.js";
import { who } from "../approvals/gate-messages.js";
import { assertOpen } from "../approvals/pending-checks.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import { changeControlFor } from "../change-control/apply.js";
import type { ClickInput } from "../context/pipeline-types.js";
import { rich } from "../presentation/message.js";
import { runOnArray } from "../requests/run-command.js";
import { inContext } from "../requests/send-plan.js";
import { commandPath } from "../words/command-path.js";
import type { Runtime } from "./runtime.js";

/** A follow-up button (Recover): runs its command for whoever clicks, if their role allows. */
export async function runOffer(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome> {
  // The offer button acts on offer records only: a payload naming a gated request's id (its Confirm or Approve
  // is another button) must not run it, nor open a new gate in the clicker's name.
  if (rec.kind !== "offer" || rec.policy !== "offer")
    throw new UserFacingError("NOT_AN_OFFER", "This button is not one the bot offers; nothing was done.");
  const entry = rt.deps.registry.byId(rec.commandId);
  if (!entry)
    throw new InternalError("PENDING_COMMAND_UNKNOWN", `offer ${rec.id} names unknown ${rec.commandId}`);
  const client = rt.deps.pool.get(rec.array);
  const role = await rt.access.roleOn(input.actor.userId, client);
  assertRole(`\`${commandPath(entry.id)}\``, entry.command.role, role, rec.array);
  assertOpen(rec, rt.deps.config.time_zone);
  const claimed = await rt.deps.store.claim(rec.id, "pending");
  if (!claimed)
    throw new UserFacingError("PENDING_CLOSED", "This button was used a moment ago; nothing more was done.");
  if (rt.deps.now() >= claimed.expiresAt) {
    await rt.deps.store.update(rec.id, { status: "expired", updatedAt: rt.deps.now() });
    throw new UserFacingError(
      "OFFER_EXPIRED",
      `The ${rec.display.title} button has expired; run the command instead.`,
    );
  }
  const ctx = rt.contextFor(client, { ...input.actor, role: role as Role }, rec.requestId, log);
  return failClaimOnError(rt, rec.id, async (): Promise<Outcome> => {
    const impact = entry.command.impact
      ? await inContext(await entry.command.impact(rec.args, ctx), client)
      : undefined;
    const cls = impact ? (entry.command.destructive?.(rec.args, impact) ?? null) : null;
    const secrets = entry.command.secrets?.(rec.args) ?? [];
    // A button is a path into the array like any other: a freeze refuses it (break-glass is typed, with its
    // reason), and an approval rule over it opens the rule's gate instead of running at once.
    const control = impact
      ? await changeControlFor(rt, { entry, cls: cls ?? undefined, client, actor: input.actor })
      : {};
    if (impact && (cls || secrets.length > 0 || control.rule)) {
      // A destructive offer (Eradicate) is no shortcut: it opens the gate the typed command would; so does one
      // that takes a secret, which its clicker then types privately.
      const gate = await openGate(rt, {
        entry,
        args: rec.args,
        actor: input.actor,
        requestId: rec.requestId,
        client,
        impact,
        ...(cls ? { cls } : {}),
        ...(secrets.length > 0 ? { secrets } : {}),
        control,
        commandText: `${rec.commandText} ${Object.values(rec.args).map(String).join(" ")} --array ${rec.array}`,
      });
      await rt.deps.store.update(rec.id, { status: "executed", outcome: "ok", updatedAt: rt.deps.now() });
      return { effects: gate.effects, decision: "pending", ok: true };
    }
    const result = await runOnArray(rt, entry, rec.args, ctx, impact);
    const by = {
      userId: input.actor.userId,
      ...(input.actor.displayName ? { displayName: input.actor.displayName } : {}),
    };
    await rt.deps.store.update(rec.id, {
      status: "executed",
      outcome: "ok",
      updatedAt: rt.deps.now(),
      decidedBy: by,
    });
    const line = rich`${who(input.actor)} clicked ${rec.display.title}.`;
    const msg = { ...result, blocks: [...result.blocks, { type: "context" as const, text: line }] };
    return { effects: [{ kind: "reply", message: msg }], decision: "allowed", ok: true };
  });
}
