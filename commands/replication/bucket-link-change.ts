/**
 * `bucket-link pause|resume|credentials|delete`: the changes of one existing link. Pausing is class
 * pause_replication (ransomware runbooks pause replication first, so it is fast but audited); deleting is class
 * delete_replication: the copy on the remote stays but stops receiving changes, and the impact says whether the
 * bucket is then replicated anywhere at all. Hand-written because a link is found by its bucket and remote, each
 * card shows its lag and state read first, and delete reads what else protects the bucket, which the generic
 * verbs cannot.
 */
import { z } from "zod";
import {
  type CommandContext,
  type CommandDefinition,
  defineCommand,
  type Impact,
  type PlannedRequest,
  type StateValue,
} from "../../src/core/catalogue/define-command.js";
import { type Rich, rich } from "../../src/core/presentation/message.js";
import { UserFacingError } from "../../src/errors.js";
import { done } from "../shared/done.js";
import { planned } from "../shared/plan.js";
import { selectArgs } from "./bucket-link.js";
import {
  bucketLinksOf,
  type FoundLink,
  findBucketLink,
  linkFacts,
  linkText,
  PATH,
  patchRequest,
} from "./bucket-link-facts.js";

/**
 * One change of the link the arguments find: its card states the link's facts and state, `plan` says the rest
 * and the one request; `said` is the channel's line given "bucket replica link … on <array>".
 */
function linkChange<S extends typeof selectArgs>({
  gate,
  plan,
  said,
  ...spec
}: Pick<
  CommandDefinition<S, LinkDone>,
  "verb" | "summary" | "examples" | "positional" | "args" | "endpoints"
> & {
  gate?: "pause_replication" | "delete_replication";
  plan(f: FoundLink, a: z.output<S>, ctx: CommandContext): Promise<LinkPlan>;
  said(target: string, a: z.output<S>): string;
}) {
  return defineCommand<S, LinkDone>({
    ...spec,
    role: "operator",
    visibility: "in_channel",
    async impact(a, ctx): Promise<Impact> {
      const f = await findBucketLink(ctx, a.bucket, a.remote);
      const { facts, state } = linkFacts(ctx, f);
      const { request, ...p } = await plan(f, a, ctx);
      const target = `bucket replica link ${linkText(f)}`;
      return { target, facts, warnings: [], ...p, state: { ...state, ...p.state }, requests: [request] };
    },
    ...(gate ? { destructive: () => gate, gateClasses: [gate] } : {}),
    result: (_responses, _a, _ctx, impact) => ({ text: impact?.target ?? "" }),
    render: (r, a, rctx) => done(said(`${r.text} on ${rctx.arrays[0] ?? "?"}`, a)),
  });
}
type LinkDone = { text: string };
type LinkPlan = {
  summary: Rich;
  warnings?: Rich[];
  state?: Record<string, StateValue>;
  request: PlannedRequest;
};

/** Pause and resume: one PATCH of `paused`, refused when the link is already so; pausing is gated. */
function pauseOrResume(paused: boolean) {
  const verb = paused ? "pause" : "resume";
  const example = `replica-link bucket ${verb} ${paused ? "analytics-curated" : "veeam-repo"}`;
  return linkChange({
    verb,
    summary: paused
      ? "Pause a bucket's replication (e.g. to stop encrypted data reaching the copy); gated"
      : "Resume a paused bucket replica link",
    examples: [example, `${example} --remote fb-dr-01`],
    endpoints: [`PATCH /bucket-replica-links {paused: ${paused}}`],
    positional: ["bucket"],
    args: selectArgs,
    ...(paused ? { gate: "pause_replication" as const } : {}),
    async plan(f, _a, ctx) {
      if (Boolean(f.link.paused) === paused) {
        throw new UserFacingError(
          paused ? "ALREADY_PAUSED" : "NOT_PAUSED",
          paused
            ? `The replica link ${linkText(f)} is already paused. Nothing was changed.`
            : `The replica link ${linkText(f)} is not paused (${f.link.status ?? "?"}). Nothing was changed.`,
        );
      }
      return {
        summary: paused
          ? rich`Pauses replication of bucket *${f.bucket}* to ${f.remote}:${f.remoteBucket} on ${ctx.arrayName}.`
          : rich`Resumes replication of bucket *${f.bucket}* to ${f.remote}:${f.remoteBucket} on ${ctx.arrayName}; it catches up from its recovery point.`,
        warnings: paused
          ? [
              rich`New and changed objects in ${f.bucket} stop reaching ${f.remote}; its copy stays at the current recovery point and the lag grows for as long as the link is paused. Resume with \`/array replica-link bucket resume ${f.bucket} --remote ${f.remote}\`.`,
            ]
          : [],
        request: patchRequest(f, { paused }),
      };
    },
    said: (target) => `${paused ? "Paused" : "Resumed"} ${target}.`,
  });
}
export const bucketLinkPause = pauseOrResume(true);
export const bucketLinkResume = pauseOrResume(false);

export const bucketLinkCredentials = linkChange({
  verb: "credentials",
  summary: "Use other remote credentials for a bucket replica link (after rotating the remote's access key)",
  examples: ["replica-link bucket credentials veeam-repo fb-dr-01/repl-creds-2 --remote fb-dr-01"],
  endpoints: ["PATCH /bucket-replica-links {remote_credentials}"],
  positional: ["bucket", "credentials"],
  args: selectArgs.extend({
    credentials: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/,
        "use <remote>/<name>, e.g. fb-dr-01/repl-creds",
      )
      .describe("the remote credentials to use, <remote>/<name>"),
  }),
  async plan(f, a) {
    if (f.link.remote_credentials?.name === a.credentials) {
      throw new UserFacingError(
        "NO_CHANGE",
        `The replica link ${linkText(f)} already uses ${a.credentials}. Nothing was changed.`,
      );
    }
    return {
      summary: rich`Switches the replica link ${linkText(f)} to remote credentials ${a.credentials}.`,
      request: patchRequest(f, { remote_credentials: { name: a.credentials } }),
    };
  },
  said: (target, a) => `${target} now uses ${a.credentials}.`,
});

export const bucketLinkDelete = linkChange({
  verb: "delete",
  summary: "Delete a bucket replica link (the remote copy stays but stops receiving changes); gated",
  examples: [
    "replica-link bucket delete logs-archive",
    "replica-link bucket delete logs-archive --remote fb-dr-01",
  ],
  endpoints: ["DELETE /bucket-replica-links"],
  positional: ["bucket"],
  args: selectArgs,
  gate: "delete_replication",
  async plan(f, _a, ctx) {
    const others = (await bucketLinksOf(ctx, f.bucket)).filter(
      (l) => l.direction !== "inbound" && l.remote?.name !== f.remote,
    );
    return {
      summary: rich`Deletes the replica link ${linkText(f)} on ${ctx.arrayName}.`,
      warnings: [
        rich`Objects written to ${f.bucket} after this no longer reach ${f.remote}:${f.remoteBucket}; what is there stays as of its recovery point. Transfers in progress are cancelled.`,
        others.length === 0
          ? rich`${f.bucket} is then replicated nowhere: this is its only replica link.`
          : rich`${f.bucket} stays replicated to ${others.map((l) => l.remote?.name ?? "?").join(", ")}.`,
      ],
      state: { other_links: others.length },
      request: planned("DELETE", PATH, f.query),
    };
  },
  said: (target) => `Deleted ${target}.`,
});
