/** The pipeline's working parts, built once from its dependencies and shared by the command and click flows. */
import { randomUUID } from "node:crypto";
import { errorCode, InternalError, isUserFacing, toUserMessage } from "../../errors.js";
import { InterceptedClient, interceptPool, type RequestHooks } from "../../flashblade/interceptor.js";
import type { ArrayClient, ArrayPool } from "../../flashblade/types.js";
import type { Logger } from "../../logger.js";
import { createMemoryStore } from "../../store/memory.js";
import { type AccessResolver, createAccessResolver } from "../access/authz.js";
import { type Auditor, createAuditor } from "../audit/audit.js";
import { historyReader, withHistory } from "../audit/audit-history.js";
import type {
  CommandActor,
  CommandContext,
  ControlPort,
  RenderContext,
} from "../catalogue/define-command.js";
import { openAccessRequest } from "../change-control/access.js";
import { type ChangeControlRecords, changeControlRecords } from "../change-control/records.js";
import type { PipelineDeps } from "../context/pipeline-deps.js";
import type { Effect } from "../context/pipeline-types.js";
import { errorMessage, type PartialError } from "../presentation/message.js";
import { type RequestBudgets, requestBudgets } from "../requests/request-budget.js";
import { policyHook, type RoleOn } from "../requests/request-guard.js";
import { DEFAULT_FAN_OUT_DEADLINE_MS } from "../requests/slow-array.js";
import { createTargetResolver, type TargetResolver } from "../requests/targets.js";

export interface Runtime {
  deps: PipelineDeps;
  access: AccessResolver;
  targets: TargetResolver;
  auditor: Auditor;
  newId: () => string;
  log: Logger;
  /** Break-glass entries and access grants (the store's, or memory's for pipelines built by hand). */
  control: ChangeControlRecords;
  /** Each request's budget of array requests (limits.array_requests_per_command), shared by its contexts. */
  budgets: RequestBudgets;
  /**
   * The check before a typed-name or secret dialog (click-flow.ts), by pending id, while it runs: a double click
   * shares one check, and its second click leaves the outcome to the first.
   */
  promptChecks: Map<string, Promise<unknown>>;
  contextFor(
    client: ArrayClient | undefined,
    actor: CommandActor,
    requestId: string,
    log: Logger,
    /** How many arrays the request asks at once (a fan-out's width); 1 when absent. */
    fanOut?: number,
  ): CommandContext;
  renderContext(arrays: readonly string[]): RenderContext;
  /** The reply for an error: user-facing text verbatim, anything else generic and logged with the request id. */
  errorEffects(err: unknown, requestId: string, log: Logger): Effect[];
}

export function createRuntime(deps: PipelineDeps): Runtime {
  const log = deps.logger;
  const budgets = requestBudgets(deps.limits?.array_requests_per_command, () => deps.onLimited?.("budget"));
  const control = deps.changeControl ?? changeControlRecords(createMemoryStore({ now: deps.now }));
  // Grants exist only where access requests are configured: elsewhere no role check reads the store for them.
  const granting = (deps.config.access_requests?.rules.length ?? 0) > 0;
  const access = createAccessResolver(deps.config.access, deps.identity, {
    ...(deps.config.mcp ? { assistants: deps.config.mcp.clients } : {}),
    ...(deps.config.workflow_steps ? { workflowSteps: deps.config.workflow_steps } : {}),
    ...(granting
      ? {
          grants: async (userId: string) =>
            (await control.grants(deps.now())).filter((g) => g.userId === userId),
        }
      : {}),
  });
  const history = deps.history && historyReader(deps.history, deps.registry);
  const self: Runtime = {
    deps,
    access,
    control,
    targets: createTargetResolver(deps.pool, deps.config.channels),
    auditor: createAuditor(
      log,
      deps.history ? withHistory(deps.audit, deps.history, deps.registry) : deps.audit,
      deps.auditChain,
    ),
    newId: deps.newId ?? (() => randomUUID()),
    log,
    budgets,
    promptChecks: new Map(),
    contextFor(rawClient, actor, requestId, reqLog, fanOut = 1) {
      // Every request the command sends passes the access policy for the actor's role on its array, then
      // counts against the command's request budget.
      const roleOn: RoleOn = async (c) =>
        c.name === rawClient?.name ? actor.role : access.roleOn(actor.userId, c);
      const budget = budgets.hook(requestId);
      const partial: PartialError[] = [];
      const hooks: RequestHooks = {
        policy: policyHook(roleOn),
        ...(budget ? { budget } : {}),
        partial: (array, _path, errors) => {
          for (const e of errors)
            partial.push({ array, context: String(e.context ?? ""), message: e.message ?? "" });
        },
      };
      const client = rawClient && new InterceptedClient(rawClient, hooks);
      // Made when first asked for: most commands use only their own array.
      let pool: ArrayPool | undefined;
      return {
        get array(): ArrayClient {
          if (!client) throw new InternalError("NO_ARRAY_CONTEXT", "a global command asked for ctx.array");
          return client;
        },
        arrayName: client?.name ?? "",
        get pool(): ArrayPool {
          pool ??= interceptPool(deps.pool, hooks);
          return pool;
        },
        actor,
        logger: reqLog,
        requestId,
        timeZone: deps.config.time_zone,
        fanOutDeadlineMs: deps.config.fan_out_deadline ?? DEFAULT_FAN_OUT_DEADLINE_MS,
        fanOut,
        ...(deps.alerts ? { alerts: deps.alerts } : {}),
        ...(history ? { history } : {}),
        control: controlPort(self, actor, requestId),
        partial,
        now: deps.now,
      };
    },
    renderContext(arrays) {
      const rows = deps.config.table_rows;
      return {
        arrays,
        now: deps.now(),
        timeZone: deps.config.time_zone,
        ...(rows ? { tableRows: rows } : {}),
      };
    },
    errorEffects(err, requestId, reqLog) {
      if (isUserFacing(err)) reqLog.info({ code: err.code }, "request refused");
      else reqLog.error({ err, requestId }, "request failed");
      return [
        { kind: "reply", message: { ...errorMessage(toUserMessage(err, requestId)), error: errorCode(err) } },
      ];
    },
  };
  return self;
}

/** What change-control commands reach (src/core/change-control/): its records, its rules, and access requests. */
function controlPort(rt: Runtime, actor: CommandActor, requestId: string): ControlPort {
  const outbox: Effect[] = [];
  return {
    records: rt.control,
    config: {
      accessRules: rt.deps.config.access_requests?.rules ?? [],
      breakGlass: rt.deps.config.break_glass ?? { users: [], groups: [] },
    },
    groupsOf: (userId) => rt.deps.identity.groupsOf(userId),
    async requestAccess(ask) {
      const { effects } = await openAccessRequest(rt, {
        ...ask,
        actor: {
          kind: actor.kind ?? "person",
          userId: actor.userId,
          channelId: actor.channelId,
          ...(actor.displayName ? { displayName: actor.displayName } : {}),
        },
        requestId,
      });
      outbox.push(...effects);
    },
    outbox,
  };
}
