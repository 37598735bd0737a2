/**
 * `fs mounts <fs> [--client <ip|host>]`: "which clients can mount X?" in one command. Hand-written because the
 * answer joins two families on REST 2.x (the file system's export, its policy's ordered rules) and reads 1.x's
 * rule string the same way, then decides for one client as the array does: first matching rule wins.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { objectName, typedValue } from "../../src/core/words/arg-types.js";
import { requireFileSystem } from "../shared/file-system-facts.js";
import { type ExportRule, exportOf, type FsExport, firstMatch } from "./exports.js";

export interface FsMountsResult {
  fs: string;
  nfs: boolean;
  exports: FsExport;
}

export const fsMounts = defineCommand({
  verb: "mounts",
  summary:
    "Which clients can mount a file system over NFS: its export rules in order, or the answer for one client",
  examples: ["fs mounts projects", "fs mounts projects --client 10.20.4.7"],
  role: "viewer",
  endpoints: ["GET /file-system-exports", "GET /file-systems", "GET /nfs-export-policies/rules"],
  positional: ["name"],
  args: z.object({
    name: objectName("file system name").describe("the file system"),
    client: typedValue("host")
      .optional()
      .describe("a client's address or host name: may it mount, and with which access?"),
  }),
  async run(args, ctx): Promise<FsMountsResult> {
    const fs = await requireFileSystem(ctx, args.name);
    const nfs = Boolean(fs.nfs?.v3_enabled ?? fs.nfs?.enabled) || Boolean(fs.nfs?.v4_1_enabled);
    return { fs: fs.name, nfs, exports: await exportOf(ctx, fs) };
  },
  render({ fs, nfs, exports }, args, rctx) {
    const array = rctx.arrays[0] ?? "?";
    const from =
      exports.policy === undefined ? "its own export rules" : rich`export policy ${exports.policy}`;
    const title = `Who can mount ${fs} on ${array}`;
    const blocks = [{ type: "header" as const, text: title }];
    const off = nfs
      ? []
      : [{ type: "section" as const, text: rich`⚠ NFS is off on ${fs}: no client can mount it now.` }];
    const client = args.client === undefined ? undefined : String(args.client);
    if (client !== undefined) {
      const m = firstMatch(exports.rules, client);
      const verdict = m
        ? rich`${client} may mount ${fs} ${m.rule.permission === "ro" ? "read-only" : "read-write"} (${m.rule.access}): rule ${m.at} of ${from}, client ${m.rule.client}.`
        : rich`${client} may not mount ${fs}: no rule of ${from} matches it.`;
      const text = `${fs} on ${array}: ${m ? `${client} may mount (${m.rule.permission}, ${m.rule.access})` : `${client} may not mount`}`;
      return message(text, [...blocks, { type: "section", text: verdict }, ...off]);
    }
    const rows = exports.rules.map((r: ExportRule, i) => ({
      order: String(i + 1),
      client: r.client,
      permission: r.permission,
      access: r.access,
    }));
    const intro =
      rows.length === 0
        ? exports.policy === undefined
          ? rich`${fs} has no export rules of its own: the array's default applies.`
          : rich`Export policy ${exports.policy} has no rules: no client may mount ${fs}.`
        : rich`From ${from}; the first rule whose client matches decides.`;
    return message(`${title}: ${rows.length} rules`, [
      ...blocks,
      { type: "section", text: intro },
      ...(rows.length
        ? [
            {
              type: "table" as const,
              columns: [
                { key: "order", label: "#", align: "right" as const },
                { key: "client", label: "Client" },
                { key: "permission", label: "Permission" },
                { key: "access", label: "Root" },
              ],
              rows,
            },
          ]
        : []),
      ...off,
    ]);
  },
});
