/**
 * `replication perf`: replication throughput now, per array (file and object replication apart), per array
 * connection and per S3 target (REST 1.9+). The throughput object is `async` in 1.x and `periodic` in 2.x;
 * replicationMetrics reads whichever the array sends. Hand-written because it joins three endpoints into one
 * table and reads a throughput object whose name changes with the REST generation.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { formatBytes } from "../../src/core/words/units.js";
import { replicationPerformanceSchema } from "../../src/flashblade/schemas.js";
import { replicationMetrics } from "../../src/flashblade/wire.js";
import { rowsListed } from "../shared/listing.js";
import { requireReplicationApi } from "./read.js";

interface PerfRow {
  array: string;
  what: string;
  sent: number;
  received: number;
}

const rate = (bytes: number) => `${formatBytes(bytes)}/s`;
/** Connection samples name their remote array in `remote`, target samples in `name`. */
const sampleSchema = replicationPerformanceSchema.extend({
  remote: z.looseObject({ name: z.string().nullish() }).nullish(),
});

export const replicationPerf = defineCommand({
  verb: "perf",
  summary: "Replication throughput now: per array (files and objects), per connection and per S3 target",
  examples: ["replication perf", "replication perf --array all"],
  role: "viewer",
  endpoints: [
    "GET /array-connections/performance/replication",
    "GET /arrays/performance/replication",
    "GET /targets/performance/replication",
  ],
  args: z.object({}),
  async run(_a, ctx): Promise<PerfRow[]> {
    await requireReplicationApi(ctx);
    const rows: PerfRow[] = [];
    for (const type of ["file-system", "object-store"] as const) {
      const items = await ctx.array.arrays.replicationPerformance(type);
      const last = items.at(-1)?.throughput;
      rows.push({
        array: ctx.arrayName,
        what: `${ctx.arrayName} (${type === "file-system" ? "file systems" : "buckets"})`,
        sent: last?.transmitted_bytes_per_sec ?? 0,
        received: last?.received_bytes_per_sec ?? 0,
      });
    }
    for (const [path, label] of [
      ["/array-connections/performance/replication", "connection to"],
      ["/targets/performance/replication", "S3 target"],
    ] as const) {
      const latest = new Map<string, z.output<typeof sampleSchema>>();
      for await (const p of ctx.array.iterate(path, { schema: sampleSchema })) {
        const name = p.remote?.name ?? p.name ?? "?";
        if ((p.time ?? 0) >= (latest.get(name)?.time ?? -1)) latest.set(name, p);
      }
      for (const [name, p] of latest) {
        const t = replicationMetrics(p);
        rows.push({
          array: ctx.arrayName,
          what: `${label} ${name}`,
          sent: t?.transmitted_bytes_per_sec ?? 0,
          received: t?.received_bytes_per_sec ?? 0,
        });
      }
    }
    return rows;
  },
  ...rowsListed(
    (r: PerfRow) => ({ what: r.what, sent: rate(r.sent), received: rate(r.received) }),
    () => ({
      empty: (where) => `No replication on ${where}.`,
      headline: (where) => `Replication throughput on ${where}`,
      columns: { what: "Where", sent: "Sending", received: "Receiving" },
      right: ["sent", "received"],
      filename: "replication-perf.csv",
    }),
    (r: PerfRow) => ({ what: r.what, sent: r.sent, received: r.received }),
  ),
});
