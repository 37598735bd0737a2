/**
 * `virtual-host list|add|remove` (REST 1.12): host names under which S3 clients address buckets
 * virtual-hosted style (`bucket.s3.example.com`). Removing one breaks clients that use it, so it is class
 * delete. Not catalogue data: add and remove (admin) refuse an existing or missing host, read before the change,
 * and warn about DNS and clients, which the generic create and delete cannot.
 */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { type CommandContext, defineCommand } from "../../src/core/define-command.js";
import { rich } from "../../src/core/message.js";
import { countOf } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { rowsListing } from "../shared/listing.js";
import { namedChange } from "../shared/named-change.js";

const PATH = "/object-store-virtual-hosts";
const hostSchema = z.looseObject({ name: z.string() });
const hostArg = z.object({
  host: objectName("host name")
    .refine(
      (s) => /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(s),
      "use a host name such as s3.example.com",
    )
    .describe("the host name, e.g. s3.example.com"),
});

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
    }),
});

export const virtualHostAdd = namedChange({
  verb: "add",
  summary: "Let S3 clients address buckets as <bucket>.<host>",
  examples: ["virtual-host add s3.lab.example.com"],
  role: "admin",
  // One verb per endpoint: the generic `create` sent the same POST as an operator.
  replaces: ["virtual-host.create"],
  args: hostArg,
  key: "host",
  method: "POST",
  path: PATH,
  what: "virtual host",
  async plan(a, ctx) {
    const hosts = await hostsOf(ctx);
    if (hosts.includes(a.host)) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `${a.host} is already a virtual host on ${ctx.arrayName}. Nothing was changed.`,
      );
    }
    return {
      summary: rich`Adds virtual host *${a.host}* on ${ctx.arrayName}: buckets answer as <bucket>.${a.host}.`,
      warnings: [rich`DNS must resolve *.${a.host} to the array's data addresses.`],
      state: { hosts: hosts.length },
    };
  },
  answer: (host, array) => `Added virtual host ${host} on ${array}.`,
});

export const virtualHostRemove = namedChange({
  verb: "remove",
  summary: "Stop answering S3 requests under a virtual host name; gated",
  examples: ["virtual-host remove s3.example.com"],
  role: "admin",
  replaces: ["virtual-host.delete"],
  args: hostArg,
  key: "host",
  method: "DELETE",
  path: PATH,
  what: "virtual host",
  async plan(a, ctx) {
    const hosts = await hostsOf(ctx);
    if (!hosts.includes(a.host)) {
      throw new UserFacingError("NOT_FOUND", `${a.host} is not a virtual host on ${ctx.arrayName}.`);
    }
    return {
      summary: rich`Removes virtual host *${a.host}* from ${ctx.arrayName}.`,
      warnings: [rich`Clients addressing buckets as <bucket>.${a.host} get errors from then on.`],
      state: { hosts: hosts.length },
    };
  },
  cls: "delete",
  answer: (host, array) => `Removed virtual host ${host} from ${array}.`,
});
