/**
 * Finding one bucket replica link from what a user types (a bucket, and the remote array or target when the
 * bucket replicates to more than one), and the request selectors for it. The spec lets a request name the
 * local bucket by `local_bucket_names` or `local_bucket_ids` and the remote by `remote_names` or `remote_ids`,
 * never both of a pair; we always send names, which is what the user typed and what the audit record reads.
 */
import type { CommandContext, PlannedRequest, StateValue } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { type Field, rich } from "../../src/core/presentation/message.js";
import { formatDuration } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { planned } from "../shared/plan.js";
import { type BucketLink, bucketLinkSchema, requireReplicationApi } from "./read.js";

export const PATH = "/bucket-replica-links";

export interface FoundLink {
  link: BucketLink;
  bucket: string;
  remote: string;
  remoteBucket: string;
  /** The selectors every PATCH and DELETE of this link sends. */
  query: { local_bucket_names: string[]; remote_names: string[] };
}

export async function bucketLinksOf(ctx: CommandContext, bucket?: string): Promise<BucketLink[]> {
  await requireReplicationApi(ctx);
  // A filter rather than local_bucket_names=: that parameter answers "no link" with a 400.
  const query = bucket === undefined ? {} : { filter: eq("local_bucket.name", bucket) };
  const out: BucketLink[] = [];
  for await (const l of ctx.array.iterate(PATH, { query, schema: bucketLinkSchema })) {
    if (bucket === undefined || l.local_bucket?.name === bucket) out.push(l);
  }
  return out;
}

export async function findBucketLink(
  ctx: CommandContext,
  bucket: string,
  remote: string | undefined,
): Promise<FoundLink> {
  const links = (await bucketLinksOf(ctx, bucket)).filter((l) => l.direction !== "inbound");
  const there = links.map((l) => l.remote?.name ?? "?");
  const hits = remote === undefined ? links : links.filter((l) => l.remote?.name === remote);
  if (hits.length === 0) {
    throw new UserFacingError(
      "NOT_FOUND",
      links.length === 0
        ? `Bucket ${bucket} has no replica link on ${ctx.arrayName}. See them all with \`/array bucket-link list --array ${ctx.arrayName}\`.`
        : `Bucket ${bucket} has no replica link to ${remote}; its links go to ${there.join(", ")}.`,
    );
  }
  if (hits.length > 1) {
    throw new UserFacingError(
      "AMBIGUOUS",
      `Bucket ${bucket} replicates to ${there.join(", ")}; say which with --remote, e.g. \`--remote ${there[0]}\`.`,
    );
  }
  const link = hits[0] as BucketLink;
  const r = link.remote?.name ?? "?";
  return {
    link,
    bucket,
    remote: r,
    remoteBucket: link.remote_bucket?.name ?? bucket,
    query: { local_bucket_names: [bucket], remote_names: [r] },
  };
}

export function linkText(f: Pick<FoundLink, "bucket" | "remote" | "remoteBucket">): string {
  return `${f.bucket} → ${f.remote}${f.remoteBucket === f.bucket ? "" : `:${f.remoteBucket}`}`;
}

/** Lag, recovery point, status and credentials as impact facts; lag itself stays out of the state (it moves). */
export function linkFacts(
  ctx: CommandContext,
  f: FoundLink,
): { facts: Field[]; state: Record<string, StateValue> } {
  const l = f.link;
  const now = ctx.now();
  const lag = l.lag ?? (l.recovery_point === undefined ? undefined : now - l.recovery_point);
  const facts: Field[] = [
    {
      label: "Status",
      value: rich`${l.paused ? "paused" : (l.status ?? "?")}${l.status_details ? ` — ${l.status_details}` : ""}`,
    },
    { label: "Lag", value: rich`${lag === undefined ? "unknown" : formatDuration(lag)}` },
  ];
  if (l.recovery_point !== undefined) {
    facts.push({ label: "Recovery point", value: rich`${formatWhen(l.recovery_point, now, ctx.timeZone)}` });
  }
  if (l.remote_credentials?.name) {
    facts.push({ label: "Remote credentials", value: rich`${l.remote_credentials.name}` });
  }
  return {
    facts,
    state: { link_id: l.id ?? null, paused: l.paused ?? null, remote_bucket: f.remoteBucket },
  };
}

export function patchRequest(f: FoundLink, body: Record<string, unknown>): PlannedRequest {
  return planned("PATCH", PATH, f.query, body);
}
