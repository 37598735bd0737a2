/**
 * `bucket-link list|create`: bucket replica links (REST 1.9+); their changes are in bucket-link-change.ts.
 * Hand-written because the list reads each link's lag and recovery point, and create checks the bucket and the remote
 * first, which the generic verbs cannot.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { rich } from "../../src/core/presentation/message.js";
import { flag, objectName } from "../../src/core/words/arg-types.js";
import { formatDuration } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { requireBucket } from "../object-store/bucket.js";
import { done } from "../shared/done.js";
import { rowsListed } from "../shared/listing.js";
import { planned } from "../shared/plan.js";
import { isoTime } from "../shared/shown.js";
import { bucketLinksOf, linkText, PATH } from "./bucket-link-facts.js";
import { requireRemoteBucket } from "./bucket-link-remote.js";

const bucket = () => objectName("bucket name").describe("the local bucket");
const remote = () =>
  objectName("array or target name")
    .optional()
    .describe("the remote array or S3 target (needed when the bucket replicates to several)");
export const selectArgs = z.object({ bucket: bucket(), remote: remote() });

interface LinkRowOut {
  array: string;
  link: string;
  status: string;
  lag: number | undefined;
  recoveryPoint: number | undefined;
  credentials: string;
}

export const bucketLinkList = defineCommand({
  verb: "list",
  summary: "Bucket replica links with their status, lag and recovery point",
  examples: [
    "replica-link bucket list",
    "replica-link bucket list veeam-repo",
    "replica-link bucket list --array all",
  ],
  role: "viewer",
  endpoints: ["GET /bucket-replica-links"],
  positional: ["bucket"],
  args: z.object({ bucket: bucket().optional() }),
  async run(a, ctx): Promise<LinkRowOut[]> {
    const now = ctx.now();
    return (await bucketLinksOf(ctx, a.bucket)).map((l) => ({
      array: ctx.arrayName,
      link: linkText({
        bucket: l.local_bucket?.name ?? "?",
        remote: l.remote?.name ?? "?",
        remoteBucket: l.remote_bucket?.name ?? l.local_bucket?.name ?? "?",
      }),
      status: `${l.paused ? "paused" : (l.status ?? "?")}${l.direction === "inbound" ? " (inbound)" : ""}`,
      lag: l.lag ?? (l.recovery_point === undefined ? undefined : now - l.recovery_point),
      recoveryPoint: l.recovery_point,
      credentials: l.remote_credentials?.name ?? "–",
    }));
  },
  ...rowsListed(
    (r: LinkRowOut, rctx) => ({
      link: r.link,
      status: r.status,
      lag: r.lag === undefined ? "–" : formatDuration(r.lag),
      rp: r.recoveryPoint === undefined ? "–" : formatWhen(r.recoveryPoint, rctx.now, rctx.timeZone),
      credentials: r.credentials,
    }),
    (a: { bucket?: string | undefined }) => ({
      noun: "bucket replica link",
      scope: a.bucket && `for ${a.bucket}`,
      columns: {
        link: "Link",
        status: "Status",
        lag: "Lag",
        rp: "Recovery point",
        credentials: "Remote credentials",
      },
      right: ["lag"],
    }),
    (r: LinkRowOut) => ({
      link: r.link,
      status: r.status,
      lag: r.lag ?? null,
      rp: isoTime(r.recoveryPoint),
      credentials: r.credentials,
    }),
  ),
});

export const bucketLinkCreate = defineCommand({
  verb: "create",
  summary: "Replicate a bucket to a bucket on a connected array or S3 target, with remote credentials",
  examples: [
    "replica-link bucket create analytics-raw --remote fb-dr-01 --credentials fb-dr-01/repl-creds --remote-bucket analytics-raw-dr",
    "replica-link bucket create analytics-raw --remote fb-dr-01 --credentials fb-dr-01/repl-creds --remote-bucket analytics-raw-dr --paused",
  ],
  role: "operator",
  endpoints: ["POST /bucket-replica-links"],
  visibility: "in_channel",
  positional: ["bucket"],
  args: z.object({
    bucket: bucket(),
    remote: objectName("array or target name").describe("the remote array or S3 target"),
    credentials: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/,
        "use <remote>/<name>, e.g. fb-dr-01/repl-creds",
      )
      .describe("the remote credentials, <remote>/<name>"),
    remoteBucket: objectName("bucket name")
      .optional()
      .describe("the bucket on the remote (default: the same name)"),
    paused: flag().optional().describe("create it paused"),
  }),
  async impact(a, ctx): Promise<Impact> {
    // Checked here so the dry run says what the real run would: the array refuses a link from a bucket it lacks.
    const local = await requireBucket(ctx, a.bucket);
    if (local.destroyed) {
      throw new UserFacingError(
        "BUCKET_DESTROYED",
        `Bucket ${a.bucket} on ${ctx.arrayName} is destroyed; recover it first (\`/array bucket recover ${a.bucket}\`). Nothing was changed.`,
      );
    }
    const existing = await bucketLinksOf(ctx, a.bucket);
    const remoteBucket = a.remoteBucket ?? a.bucket;
    const same = (l: (typeof existing)[number]) =>
      l.direction !== "inbound" &&
      l.remote?.name === a.remote &&
      (l.remote_bucket?.name ?? a.bucket) === remoteBucket;
    if (existing.some(same)) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `Bucket ${a.bucket} already replicates to ${a.remote}:${remoteBucket}. See it with \`/array replica-link bucket list --array ${ctx.arrayName}\`. Nothing was changed.`,
      );
    }
    await requireRemoteBucket(ctx, a.remote, remoteBucket, local.account?.name ?? undefined);
    const query = {
      local_bucket_names: [a.bucket],
      remote_bucket_names: [remoteBucket],
      remote_credentials_names: [a.credentials],
    };
    const text = linkText({ bucket: a.bucket, remote: a.remote, remoteBucket });
    return {
      target: `bucket replica link ${text}`,
      summary: rich`Replicates bucket *${a.bucket}* to ${a.remote}:${remoteBucket} with credentials ${a.credentials}${a.paused ? " (paused)" : ""}.`,
      facts: existing.length
        ? [{ label: "Existing links", value: rich`${existing.map((l) => l.remote?.name ?? "?").join(", ")}` }]
        : [],
      warnings: [],
      state: { links: existing.length },
      requests: [planned("POST", PATH, query, a.paused ? { paused: true } : {})],
    };
  },
  result(_responses, a, _ctx, impact) {
    return { text: impact?.target ?? a.bucket, paused: a.paused === true };
  },
  render: (r, _a, rctx) =>
    done(
      `Created ${r.text} on ${rctx.arrays[0] ?? "?"}${r.paused ? ", paused" : ""}. Watch it with /array replication status.`,
    ),
});
