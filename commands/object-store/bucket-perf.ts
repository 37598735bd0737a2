/**
 * `bucket perf [bucket] [--top N]` (REST 1.8+): the busiest buckets now, from /buckets/performance; for one
 * bucket also the S3-specific rates (objects and bucket operations) from /buckets/s3-specific-performance.
 * Hand-written because it ranks the latest samples and joins a second endpoint, which a generic list cannot.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { count, objectName } from "../../src/core/words/arg-types.js";
import { formatBytes, formatCount, formatLatencyMs } from "../../src/core/words/units.js";
import { requireApi } from "../../src/flashblade/wire.js";
import { rowsListing } from "../shared/listing.js";

const num = z.number().nullish();
const perfSchema = z.looseObject({
  name: z.string(),
  time: num,
  reads_per_sec: num,
  writes_per_sec: num,
  read_bytes_per_sec: num,
  write_bytes_per_sec: num,
  usec_per_read_op: num,
  usec_per_write_op: num,
});
const s3Schema = z.looseObject({
  name: z.string(),
  time: num,
  read_objects_per_sec: num,
  write_objects_per_sec: num,
  read_buckets_per_sec: num,
  write_buckets_per_sec: num,
  usec_per_read_object_op: num,
  usec_per_write_object_op: num,
});
type Perf = z.output<typeof perfSchema>;
type S3 = z.output<typeof s3Schema>;

const DEFAULT_TOP = 10;
const bytesOf = (p: Perf) => (p.read_bytes_per_sec ?? 0) + (p.write_bytes_per_sec ?? 0);

/** The newest sample per bucket. */
function latest<T extends { name: string; time?: number | null | undefined }>(items: T[]): T[] {
  const by = new Map<string, T>();
  for (const i of items) if ((i.time ?? 0) >= (by.get(i.name)?.time ?? -1)) by.set(i.name, i);
  return [...by.values()];
}

export const bucketPerf = defineCommand({
  verb: "perf",
  summary: "The busiest buckets now (or one bucket, with its S3 object rates)",
  examples: ["bucket perf", "bucket perf veeam-repo", "bucket perf --top 5 --array all"],
  role: "viewer",
  endpoints: ["GET /buckets/performance"],
  positional: ["bucket"],
  args: z.object({
    bucket: objectName("bucket name").optional().describe("one bucket, with S3-specific rates"),
    top: count({ min: 1, max: 100 }).optional().describe(`how many buckets (default ${DEFAULT_TOP})`),
  }),
  async run(a, ctx): Promise<{ array: string; p: Perf; s3?: S3 }[]> {
    await requireApi(ctx, "1.8", "The bucket performance API");
    const query = a.bucket === undefined ? {} : { names: [a.bucket] };
    const items: Perf[] = [];
    for await (const p of ctx.array.iterate("/buckets/performance", { query, schema: perfSchema }))
      items.push(p);
    const rows = latest(items).map((p) => ({ array: ctx.arrayName, p }));
    if (a.bucket === undefined) return rows;
    const s3: S3[] = [];
    for await (const p of ctx.array.iterate("/buckets/s3-specific-performance", { query, schema: s3Schema }))
      s3.push(p);
    const s = latest(s3)[0];
    return rows.map((r) => (s ? { ...r, s3: s } : r));
  },
  merge: (results) => results.flatMap((r) => r.result),
  render(rows, a, rctx) {
    const top = a.top ?? DEFAULT_TOP;
    const sorted = [...rows].sort((x, y) => bytesOf(y.p) - bytesOf(x.p)).slice(0, top);
    const msg = rowsListing(
      rctx,
      sorted.map(({ array, p }) => ({
        array,
        name: p.name,
        reads: formatCount(Math.round(p.reads_per_sec ?? 0)),
        writes: formatCount(Math.round(p.writes_per_sec ?? 0)),
        rbytes: `${formatBytes(p.read_bytes_per_sec ?? 0)}/s`,
        wbytes: `${formatBytes(p.write_bytes_per_sec ?? 0)}/s`,
        rlat: formatLatencyMs((p.usec_per_read_op ?? 0) / 1000),
        wlat: formatLatencyMs((p.usec_per_write_op ?? 0) / 1000),
      })),
      {
        empty: (where) => `No bucket activity on ${where}.`,
        headline: (where) =>
          a.bucket
            ? `Bucket ${a.bucket} now on ${where}`
            : `Busiest ${sorted.length} buckets now on ${where}`,
        columns: {
          name: "Bucket",
          reads: "Reads/s",
          writes: "Writes/s",
          rbytes: "Read",
          wbytes: "Write",
          rlat: "Read latency",
          wlat: "Write latency",
        },
        right: ["reads", "writes", "rbytes", "wbytes", "rlat", "wlat"],
        filename: "bucket-perf.csv",
      },
    );
    const s3 = sorted[0]?.s3;
    if (a.bucket && s3) {
      msg.blocks.push({
        type: "context",
        text: rich`S3: ${formatCount(Math.round(s3.read_objects_per_sec ?? 0))} object reads/s (${formatLatencyMs((s3.usec_per_read_object_op ?? 0) / 1000)}), ${formatCount(Math.round(s3.write_objects_per_sec ?? 0))} object writes/s (${formatLatencyMs((s3.usec_per_write_object_op ?? 0) / 1000)}), ${formatCount(Math.round((s3.read_buckets_per_sec ?? 0) + (s3.write_buckets_per_sec ?? 0)))} bucket operations/s.`,
      });
    }
    return msg;
  },
});
