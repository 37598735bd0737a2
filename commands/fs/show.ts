/**
 * `fs show <name>`: hand-written, not the catalogue's generic show, because one file system is shown with what
 * surrounds it (snapshot count, replica links, policies, the destroyed state with its way back) read from four
 * endpoints, in words rather than the item's raw fields.
 */
import { z } from "zod";
import { objectName } from "../../src/core/arg-types.js";
import { defineCommand } from "../../src/core/define-command.js";
import { formatWhen } from "../../src/core/format-time.js";
import { type Field, message, rich } from "../../src/core/message.js";
import { formatBytes, formatCount, formatDuration } from "../../src/core/units.js";
import type { FileSystem, FileSystemReplicaLink } from "../../src/flashblade/types.js";
import { fileSystemPolicies as policiesOf } from "../policy/read.js";
import {
  linksText,
  protocolsOf,
  requireFileSystem,
  sizeText,
  snapshotCount,
  usageText,
} from "../shared/file-system-facts.js";

export interface FsShowResult {
  fs: FileSystem;
  snapshots: number;
  links: FileSystemReplicaLink[];
  /** Snapshot policies on the file system; undefined before REST 1.5 (no policies). */
  policies?: string[];
}

export const fsShow = defineCommand({
  verb: "show",
  summary:
    "Show one file system: space, data reduction, NFSv3/NFSv4.1, export rules, SMB/HTTP, snapshot directory, policies, replica links",
  examples: ["fs show home", "fs show home --array fb-dr-01"],
  role: "viewer",
  positional: ["name"],
  args: z.object({ name: objectName("file system name").describe("the file system") }),
  async run(args, ctx): Promise<FsShowResult> {
    const fs = await requireFileSystem(ctx, args.name);
    const [snapshots, links, policies] = await Promise.all([
      snapshotCount(ctx, fs.name),
      ctx.array.replicaLinks.forFileSystem(fs.name),
      policiesOf(ctx, fs.name),
    ]);
    return { fs, snapshots, links, ...(policies ? { policies } : {}) };
  },
  render({ fs, snapshots, links, policies }, _args, rctx) {
    const array = rctx.arrays[0] ?? "?";
    const protocols = protocolsOf(fs);
    const fields: Field[] = [
      { label: "Provisioned", value: rich`${sizeText(fs.provisioned)}` },
      { label: "Used", value: rich`${usageText(fs)}` },
      {
        label: "Data reduction",
        value: rich`${fs.space?.data_reduction === undefined ? "–" : `${fs.space.data_reduction.toFixed(1)}:1`}`,
      },
      {
        label: "Physical",
        value: rich`${fs.space?.total_physical === undefined ? "–" : formatBytes(fs.space.total_physical)}`,
      },
      { label: "Protocols", value: rich`${protocols.length ? protocols.join(", ") : "none"}` },
      ...protocolFields(fs),
      { label: "Snapshot directory", value: rich`${onOff(fs.snapshot_directory_enabled)}` },
      // Attached policies come from the array's policy-member endpoint (REST 1.5+); "–" before it.
      {
        label: "Policies",
        value: rich`${policies === undefined ? "–" : policies.length ? policies.join(", ") : "none"}`,
      },
      { label: "Hard limit", value: rich`${fs.hard_limit_enabled ? "on" : "off"}` },
      { label: "Snapshots", value: rich`${formatCount(snapshots)}` },
      { label: "Replica links", value: rich`${linksText(links)}` },
      ...(policies ? [{ label: "Protected by", value: rich`${protectionText(policies, links)}` }] : []),
      {
        label: "Created",
        value: rich`${fs.created === undefined ? "–" : formatWhen(fs.created, rctx.now, rctx.timeZone)}`,
      },
    ];
    if (fs.default_user_quota)
      fields.push({ label: "Default user quota", value: rich`${formatBytes(fs.default_user_quota)}` });
    if (fs.default_group_quota) {
      fields.push({ label: "Default group quota", value: rich`${formatBytes(fs.default_group_quota)}` });
    }
    const title = `File system ${fs.name} on ${array}`;
    const blocks = [
      { type: "header" as const, text: title },
      { type: "fields" as const, fields },
    ];
    if (fs.destroyed) {
      const left =
        fs.time_remaining === undefined
          ? ""
          : ` It will be eradicated in ${formatDuration(fs.time_remaining)}.`;
      return message(`${title} (destroyed)`, [
        ...blocks,
        {
          type: "section",
          text: rich`⚠ Destroyed: not serving clients.${left} Recover it with \`/array fs recover ${fs.name}\`.`,
        },
      ]);
    }
    return message(`${title}: ${usageText(fs)}`, blocks);
  },
});

/** "on", "off", or "–" when the array's version does not report the field. */
function onOff(v: boolean | undefined): string {
  return v === undefined ? "–" : v ? "on" : "off";
}

/** NFSv3 and NFSv4.1 apart (before REST 1.6 `nfs.enabled` is NFSv3 and v4.1 is not reported), rules, SMB, HTTP. */
function protocolFields(fs: FileSystem): Field[] {
  const nfs = fs.nfs;
  const acl = fs.smb?.acl_mode ?? fs.smb?.["acl-mode"];
  const smb = onOff(fs.smb?.enabled);
  return [
    { label: "NFSv3", value: rich`${onOff(nfs?.v3_enabled ?? nfs?.enabled)}` },
    { label: "NFSv4.1", value: rich`${onOff(nfs?.v4_1_enabled)}` },
    {
      label: "Export rules",
      value: rich`${nfs?.rules === undefined ? "–" : nfs.rules.trim() || "none (the array's default)"}`,
    },
    { label: "SMB", value: rich`${fs.smb?.enabled && acl ? `${smb} (ACL mode ${acl})` : smb}` },
    { label: "HTTP", value: rich`${onOff(fs.http?.enabled)}` },
  ];
}

/** "policy daily; replica link to fb-dr-01 (policy daily)", or a plain warning when nothing protects it. */
function protectionText(policies: readonly string[], links: readonly FileSystemReplicaLink[]): string {
  const parts = [
    ...(policies.length ? [`snapshot policy ${policies.join(", ")}`] : []),
    ...links.map((l) => {
      const lp = (l.policies ?? []).map((p) => p.name).filter(Boolean);
      return `replica link to ${l.remote?.name ?? "?"}${lp.length ? ` (policy ${lp.join(", ")})` : ""}`;
    }),
  ];
  return parts.length ? parts.join("; ") : "⚠ nothing: no snapshot policy and no replica link";
}
