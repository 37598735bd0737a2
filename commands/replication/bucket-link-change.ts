/**
 * `bucket-link credentials|delete`: pointing a link at other remote credentials (a rotated key), and deleting a
 * link (class delete): the copy on the remote stays but stops receiving changes, and the impact says whether
 * the bucket is then replicated anywhere at all. Not catalogue data: a link is found by its bucket and remote,
 * and the impact reads what else protects the bucket, which the generic verbs cannot.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { type Rich, rich } from "../../src/core/message.js";
import { UserFacingError } from "../../src/errors.js";
import { done } from "../shared/done.js";
import { planned } from "../shared/plan.js";
import { selectArgs } from "./bucket-link.js";
import {
  bucketLinksOf,
  findBucketLink,
  linkFacts,
  linkText,
  PATH,
  patchRequest,
} from "./bucket-link-facts.js";

export const bucketLinkCredentials = defineCommand({
  verb: "credentials",
  summary: "Use other remote credentials for a bucket replica link (after rotating the remote's access key)",
  examples: ["replica-link bucket credentials veeam-repo fb-dr-01/repl-creds-2 --remote fb-dr-01"],
  role: "operator",
  visibility: "in_channel",
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
  async impact(a, ctx): Promise<Impact> {
    const f = await findBucketLink(ctx, a.bucket, a.remote);
    const { facts, state } = linkFacts(ctx, f);
    if (f.link.remote_credentials?.name === a.credentials) {
      throw new UserFacingError(
        "NO_CHANGE",
        `The replica link ${linkText(f)} already uses ${a.credentials}. Nothing was changed.`,
      );
    }
    return {
      target: `bucket replica link ${linkText(f)}`,
      summary: rich`Switches the replica link ${linkText(f)} to remote credentials ${a.credentials}.`,
      facts,
      warnings: [],
      state,
      requests: [patchRequest(f, { remote_credentials: { name: a.credentials } })],
    };
  },
  result(_responses, _a, _ctx, impact) {
    return { text: impact?.target ?? "" };
  },
  render: (r, a, rctx) => done(`${r.text} on ${rctx.arrays[0] ?? "?"} now uses ${a.credentials}.`),
});

export const bucketLinkDelete = defineCommand({
  verb: "delete",
  summary: "Delete a bucket replica link (the remote copy stays but stops receiving changes); gated",
  examples: [
    "replica-link bucket delete logs-archive",
    "replica-link bucket delete logs-archive --remote fb-dr-01",
  ],
  role: "operator",
  visibility: "in_channel",
  positional: ["bucket"],
  args: selectArgs,
  async impact(a, ctx): Promise<Impact> {
    const f = await findBucketLink(ctx, a.bucket, a.remote);
    const { facts, state } = linkFacts(ctx, f);
    const others = (await bucketLinksOf(ctx, f.bucket)).filter(
      (l) => l.direction !== "inbound" && l.remote?.name !== f.remote,
    );
    const warnings: Rich[] = [
      rich`Objects written to ${f.bucket} after this no longer reach ${f.remote}:${f.remoteBucket}; what is there stays as of its recovery point. Transfers in progress are cancelled.`,
    ];
    warnings.push(
      others.length === 0
        ? rich`${f.bucket} is then replicated nowhere: this is its only replica link.`
        : rich`${f.bucket} stays replicated to ${others.map((l) => l.remote?.name ?? "?").join(", ")}.`,
    );
    return {
      target: `bucket replica link ${linkText(f)}`,
      summary: rich`Deletes the replica link ${linkText(f)} on ${ctx.arrayName}.`,
      facts,
      warnings,
      state: { ...state, other_links: others.length },
      requests: [planned("DELETE", PATH, f.query)],
    };
  },
  destructive: () => "delete_replication",
  gateClasses: ["delete_replication"],
  result(_responses, _a, _ctx, impact) {
    return { text: impact?.target ?? "" };
  },
  render: (r, _a, rctx) => done(`Deleted ${r.text} on ${rctx.arrays[0] ?? "?"}.`),
});
