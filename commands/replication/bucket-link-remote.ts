/**
 * Before a bucket replica link to an array this bot manages is planned: the remote bucket must exist there, be
 * live and have versioning enabled (object replication copies versions; the array refuses a link to a bucket
 * without them). Read through `ctx.pool`, which the access policy guards like `ctx.array`. A remote the bot
 * does not manage (an S3 target, an array elsewhere) is left to the array to judge.
 */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { PATH as BUCKETS, bucketRowSchema } from "../object-store/bucket.js";

function managed(ctx: CommandContext, remote: string): ArrayClient | undefined {
  if (remote === ctx.arrayName) return undefined;
  try {
    return ctx.pool.get(remote);
  } catch {
    return undefined;
  }
}

export async function requireRemoteBucket(
  ctx: CommandContext,
  remote: string,
  remoteBucket: string,
  account: string | undefined,
): Promise<void> {
  const client = managed(ctx, remote);
  if (client === undefined) return;
  let found: { versioning?: string | null | undefined; destroyed?: boolean | null | undefined } | undefined;
  for await (const b of client.iterate(BUCKETS, {
    query: { filter: eq("name", remoteBucket) },
    schema: bucketRowSchema,
  })) {
    if (b.name === remoteBucket) found = b;
  }
  const there = `--array ${remote}`;
  if (found === undefined) {
    throw new UserFacingError(
      "NOT_FOUND",
      `${remote} has no bucket \`${remoteBucket}\`; create it there first: \`/array bucket create ${remoteBucket} --account ${account ?? "<account>"} --versioning enabled ${there}\`. Nothing was changed.`,
    );
  }
  if (found.destroyed) {
    throw new UserFacingError(
      "BUCKET_DESTROYED",
      `Bucket \`${remoteBucket}\` on ${remote} is destroyed; recover it there first: \`/array bucket recover ${remoteBucket} ${there}\`. Nothing was changed.`,
    );
  }
  if (found.versioning !== "enabled") {
    throw new UserFacingError(
      "INVALID_ARGUMENTS",
      `Bucket \`${remoteBucket}\` on ${remote} has versioning ${found.versioning ?? "none"}; replication needs it enabled there: \`/array bucket update ${remoteBucket} --versioning enabled ${there}\`. Nothing was changed.`,
    );
  }
}
