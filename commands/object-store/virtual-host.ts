/**
 * `virtual-host list` (REST 1.12): host names under which S3 clients address buckets virtual-hosted style
 * (`bucket.s3.example.com`). Hand-written because an empty list says what it means (clients address buckets by
 * path), an older array is told that virtual hosts need 1.12, and the list says "virtual host" and "Host name" and
 * takes no --limit/--sort/--name, where the generic list would say "virtual-host" and "Name" and add those three
 * options. The catalogue's list words (spec.ts `ListWords`) now say all of that but the older array's sentence:
 * every catalogue verb refuses an old array in the one sentence of the version gate ("… needs REST 1.12, … runs
 * …", checked by test/commands/catalogue-coverage.test.ts), which would change what that array's users read.
 * Add and remove (admin) are the catalogue's
 * (catalogue/object-store.ts); their precondition reads, warning about DNS and clients, live here.
 */
import { z } from "zod";
import { type CommandContext, defineCommand } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { countOf } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import type { Precheck } from "../catalogue/spec.js";
import { rowsListing } from "../shared/listing.js";

const PATH = "/object-store-virtual-hosts";
const hostSchema = z.looseObject({ name: z.string() });
async function hostsOf(ctx: CommandContext): Promise<string[]> {
  if (!(await ctx.array.supports("1.12"))) {
    throw new UserFacingError(
      "NOT_SUPPORTED",
      `Virtual hosts need REST 1.12; ${ctx.arrayName} speaks ${await ctx.array.version()}.`,
    );
  }
  const out: string[] = [];
  for await (const h of ctx.array.iterate(PATH, { schema: hostSchema })) out.push(h.name);
  return out;
}

export const virtualHostList = defineCommand({
  verb: "list",
  summary: "Host names S3 clients use to address buckets virtual-hosted style",
  examples: ["virtual-host list", "virtual-host list --array all"],
  role: "viewer",
  endpoints: ["GET /object-store-virtual-hosts"],
  args: z.object({}),
  async run(_a, ctx) {
    return (await hostsOf(ctx)).map((name) => ({ array: ctx.arrayName, name }));
  },
  merge: (results) => results.flatMap((r) => r.result),
  render: (rows, _a, rctx) =>
    rowsListing(rctx, rows, {
      empty: (where) => `No virtual hosts on ${where}: clients address buckets by path.`,
      headline: (where) => `${countOf(rows.length, "virtual host")} on ${where}`,
      columns: [{ key: "name", label: "Host name" }],
      filename: "virtual-hosts.csv",
      values: rows,
    }),
});

/** Before an add: DNS must send `*.<host>` to the array for clients to reach buckets under it. */
export const virtualHostAddCheck: Precheck = async (ctx, { name }) => ({
  summary: rich`Adds virtual host *${name}* on ${ctx.arrayName}: buckets answer as <bucket>.${name}.`,
  warnings: [rich`DNS must resolve *.${name} to the array's data addresses.`],
  state: { hosts: (await hostsOf(ctx)).length },
});

/** Before a remove: clients that address buckets under the host break. */
export const virtualHostRemoveCheck: Precheck = async (ctx, { name }) => ({
  summary: rich`Removes virtual host *${name}* from ${ctx.arrayName}.`,
  warnings: [rich`Clients addressing buckets as <bucket>.${name} get errors from then on.`],
  state: { hosts: (await hostsOf(ctx)).length },
});
