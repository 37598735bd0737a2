/**
 * The pipeline transports call (Slack, the local console). It stays an orchestrator: the steps live in
 * command-flow.ts (typed commands), click-flow.ts (buttons) and execute-pending.ts (gated requests).
 */

import { UserFacingError } from "../../errors.js";
import { contains } from "../../flashblade/filter.js";
import { withTrace } from "../../trace.js";
import { assertActor } from "../access/actors.js";
import { createPersonLimiter } from "../access/person-limits.js";
import { closedCard } from "../approvals/gate-messages.js";
import { recoverInterrupted } from "../approvals/recovery.js";
import { auditRecord, pendingFacts } from "../audit/audit.js";
import { offeredForm, prefilled } from "../catalogue/form-offers.js";
import { formFor } from "../catalogue/forms.js";
import type { PipelineDeps } from "../context/pipeline-deps.js";
import type { Actor, Effect, Pipeline } from "../context/pipeline-types.js";
import { rich } from "../presentation/message.js";
import { redactEffect } from "../presentation/redact.js";
import { guardClient } from "../requests/request-guard.js";
import { DEFAULT_FAN_OUT_DEADLINE_MS } from "../requests/slow-array.js";
import { handleClickInput } from "./click-flow.js";
import { handleCommandText } from "./command-flow.js";
import { createRuntime } from "./runtime.js";

/**
 * How long, and how many, transport request ids are remembered with their answer, so a delivery that reaches
 * the pipeline twice is answered from the first run instead of running again. Every Slack path drops a retried
 * delivery before it gets here (DeliveryDedupe: 10 minutes, 10,000 ids, shared by replicas), so this is the
 * second guard, and it holds whole answers (a list's rows, its buttons): 5,000 of them held ~10 MiB of heap at
 * 100 commands/s, and grew as the arrays' lists did. 500 covers 5 s of that load and the few a quiet bot sees.
 */
const DEDUPE_MS = 10 * 60_000;
export const DEDUPE_MAX = 500;
/** Slack shows at most 100 options in a menu. */
const LOOKUP_MAX = 100;

/** Help reaches no array: it takes no token from the bucket (a scripted session may read all of it), only a slot. */
function isHelp(text: string): boolean {
  return /^\s*(?:(?:help|--help|-h)(?:\s|$)|$)/i.test(text);
}

export function createPipeline(deps: PipelineDeps): Pipeline {
  const rt = createRuntime(deps);
  // Every message leaves through the one redaction (see redactMessage).
  const out = (effects: Promise<Effect[]>) => effects.then((list) => list.map(redactEffect));
  const seen = new Map<string, { at: number; effects: Promise<Effect[]> }>();
  const limiter = deps.limits ? createPersonLimiter(deps.limits, deps.now, deps.onLimited) : undefined;
  /**
   * Runs `work` within the person's limits, checked before anything is parsed, looked up or sent; a refusal
   * is answered at once and counted in metrics, without an audit record (a flood would flood the audit log).
   */
  const limited = async (
    actor: Actor,
    requestId: string,
    work: () => Promise<Effect[]>,
    cost = 1,
  ): Promise<Effect[]> => {
    const userId = typeof actor?.userId === "string" ? actor.userId : "";
    let done: () => void;
    try {
      // Nothing runs for an actor no face established (src/core/access/actors.ts); limits charge the principal that
      // acts (the person, the MCP client, the workflow step), never a name carried in the request.
      assertActor(actor);
      done = limiter ? limiter.start(userId, cost) : () => {};
    } catch (err) {
      return rt.errorEffects(err, requestId, rt.log.child({ reqId: requestId, user: userId }));
    }
    try {
      return await work();
    } finally {
      done();
      rt.budgets.release(requestId);
    }
  };

  const remember = (id: string, effects: Promise<Effect[]>) => {
    const now = deps.now();
    for (const [k, v] of seen) {
      if (seen.size < DEDUPE_MAX && now - v.at < DEDUPE_MS) break;
      seen.delete(k);
    }
    seen.set(id, { at: now, effects });
  };

  return {
    answerDeadlineMs: 2 * (deps.config.fan_out_deadline ?? DEFAULT_FAN_OUT_DEADLINE_MS),
    handleCommand(input) {
      if (input.requestId !== undefined) {
        const prior = seen.get(input.requestId);
        if (prior && deps.now() - prior.at < DEDUPE_MS) {
          rt.log.info({ reqId: input.requestId }, "duplicate delivery; answering from the first run");
          return prior.effects;
        }
      }
      const requestId = input.requestId ?? rt.newId();
      if (input.arrayRequests !== undefined) rt.budgets.lower(requestId, input.arrayRequests);
      // The request's id is its trace: every log line, pending record, click, execution and array call of it.
      const effects = withTrace(requestId, () =>
        out(
          limited(
            input.actor,
            requestId,
            () => handleCommandText(rt, input, requestId),
            isHelp(input.text) ? 0 : 1,
          ),
        ),
      );
      if (input.requestId !== undefined) remember(input.requestId, effects);
      return effects;
    },

    form: (path, channelId) =>
      formFor(
        deps.registry,
        path,
        channelId === undefined ? [] : rt.targets.allowed(channelId).map((c) => c.name),
      ),

    async lookup({ actor, path, field, query, array }) {
      const f = formFor(deps.registry, path)?.fields.find((x) => x.key === field);
      if (f?.lookup === undefined) return [];
      try {
        assertActor(actor);
        const [client] = rt.targets.resolve(array, actor.channelId);
        if (!client) return [];
        // Read as the person: their role on that array, every request through the access policy.
        const role = await rt.access.roleOn(actor.userId, client);
        const field = f.lookupField ?? "name";
        const q = query.trim();
        // The typed text filters on the array, quoted by the filter builder (a quote or `*` stays literal).
        const page = await guardClient(client, async () => role).get<Record<string, unknown>>(f.lookup, {
          query: { limit: LOOKUP_MAX, sort: field, ...(q === "" ? {} : { filter: contains(field, q) }) },
        });
        const names = page.items.flatMap((i) => {
          const v = field.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], i);
          return typeof v === "string" ? [v] : [];
        });
        const lq = q.toLowerCase();
        // Those that start with the typed text first; at most Slack's 100 options.
        return [...new Set(names)]
          .sort(
            (a, b) =>
              Number(!a.toLowerCase().startsWith(lq)) - Number(!b.toLowerCase().startsWith(lq)) ||
              a.localeCompare(b),
          )
          .slice(0, LOOKUP_MAX);
      } catch (err) {
        // A menu that cannot be filled is empty; the person can still type the name into the command.
        rt.log.info({ err, path, field }, "form lookup failed");
        return [];
      }
    },

    async openForm({ actor, path, array, name }) {
      assertActor(actor);
      const [client] = rt.targets.resolve(array, actor.channelId);
      if (!client)
        throw new UserFacingError("ARRAY_REQUIRED", `Array ${array} is not one this channel may use.`);
      const role = await rt.access.roleOn(actor.userId, client);
      const arrays = rt.targets.allowed(actor.channelId).map((c) => c.name);
      const form = offeredForm(deps.registry, path, role, client.name, arrays);
      const withArray = {
        ...form,
        fields: form.fields.map((f) => (f.key === "array" ? { ...f, initial: client.name } : f)),
      };
      const pick = form.fields.find((f) => f.key === "name" && f.lookup !== undefined);
      if (name === undefined || pick?.lookup === undefined) return withArray;
      // The object as the person reads it (their role, the access policy), selected by its name.
      const by = `${(pick.lookupField ?? "name").split(".")[0]}_names`.replace(/^name_names$/, "names");
      const page = await guardClient(client, async () => role).get(pick.lookup, { query: { [by]: [name] } });
      const args = deps.registry.all().find((e) => e.path === form.path)?.command.args;
      return prefilled(withArray, name, page.items[0], args);
    },

    async requestStatus(id) {
      const rec = await deps.store.get(id);
      if (!rec) return undefined;
      return {
        id,
        status: rec.status,
        title: rec.display.title,
        ...(rec.outcome === undefined ? {} : { outcome: rec.outcome }),
      };
    },

    handleClick(input) {
      const clickId = rt.newId();
      return out(limited(input.actor, clickId, () => handleClickInput(rt, input, clickId)));
    },

    async attachMessage(pendingId, ref) {
      const rec = await deps.store.get(pendingId);
      if (!rec) return;
      if (rec.messages.some((m) => m.channelId === ref.channelId && m.ts === ref.ts)) return;
      await deps.store.update(pendingId, { messages: [...rec.messages, ref] });
    },

    recoverInterrupted() {
      return out(recoverInterrupted(rt));
    },

    async sweepExpired() {
      const now = deps.now();
      const expired = await deps.store.expireBefore(now);
      const effects: Effect[] = [];
      for (const rec of expired) {
        if (rec.kind !== "request") continue;
        const verb = rec.policy === "approve" ? "approved" : "confirmed";
        const msg = closedCard(rec, rec.display, rich`Expired: not ${verb} in time. Nothing was changed.`);
        for (const ref of rec.messages) effects.push({ kind: "update", ref, message: msg });
        await rt.auditor.record(
          auditRecord({
            ...pendingFacts(rec),
            id: rt.newId(),
            started: now,
            decision: "expired",
            outcome: "ok",
          }),
        );
      }
      // With replicas, an execution whose executor died (its lease lapsed) ends here, on whichever replica sweeps.
      if (deps.executions && !deps.executions.exclusive) effects.push(...(await recoverInterrupted(rt)));
      return effects.map(redactEffect);
    },
  };
}
