/**
 * `fs show <name>`: hand-written, not the catalogue's generic show, because one file system is shown with what
 * surrounds it (snapshot count, replica links, policies, the destroyed state with its way back) read from four
 * endpoints, in words rather than the item's raw fields.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import { type Field, message, rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { formatBytes, formatCount, formatDuration } from "../../src/core/words/units.js";
import type { FileSystem, FileSystemReplicaLink } from "../../src/flashblade/types.js";
import { fileSystemPolicies as policiesOf } from "../policy/read.js";
import {
  linksText,
  protocolsOf,
  requireFileSystem,
  sizeText,
  snapshotCount,
  usageText,
  usedBytes,
} from "../shared/file-system-facts.js";
import { type Fact, factFields, shownObject } from "../shared/shown.js";
import { exportOf, exportText, type FsExport, ruleText } from "./exports.js";

export interface FsShowResult {
  fs: FileSystem;
  snapshots: number;
  links: FileSystemReplicaLink[];
  /** Snapshot policies on the file system; undefined before REST 1.5 (no policies). */
  policies?: string[];
  /** Its NFS export rules: its own (1.x) or its export policy's (2.x). */
  exports?: FsExport;
}

export const fsShow = defineCommand({
  verb: "show",
  summary:
    "Show one file system: space, data reduction, NFSv3/NFSv4.1, export rules, SMB/HTTP, snapshot directory, policies, replica links",
  examples: ["fs show home", "fs show home --array fb-dr-01"],
  role: "viewer",
  endpoints: [
    "GET /file-system-exports",
    "GET /file-system-replica-links",
    "GET /file-system-snapshots",
    "GET /file-systems",
    "GET /nfs-export-policies/rules",
    "GET /policies/file-systems",
  ],
  positional: ["name"],
  args: z.object({ name: objectName("file system name").describe("the file system") }),
  async run(args, ctx): Promise<FsShowResult> {
    const fs = await requireFileSystem(ctx, args.name);
    const [snapshots, links, policies, exports] = await Promise.all([
      snapshotCount(ctx, fs.name),
      ctx.array.replicaLinks.forFileSystem(fs.name),
      policiesOf(ctx, fs.name),
      exportOf(ctx, fs),
    ]);
    return { fs, snapshots, links, exports, ...(policies ? { policies } : {}) };
  },
  render({ fs, snapshots, links, policies, exports }, _args, rctx) {
    const array = rctx.arrays[0] ?? "?";
    const protocols = protocolsOf(fs);
    const reduction = fs.space?.data_reduction;
    const physical = fs.space?.total_physical;
    // Each fact once: its key and raw value for faces that carry data, its label and text for people.
    const facts: Fact[] = [
      ["provisioned", "Provisioned", fs.provisioned ?? 0, sizeText(fs.provisioned)],
      ["used", "Used", usedBytes(fs), usageText(fs)],
      [
        "data_reduction",
        "Data reduction",
        reduction ?? null,
        reduction === undefined ? "–" : `${reduction.toFixed(1)}:1`,
      ],
      ["physical", "Physical", physical ?? null, physical === undefined ? "–" : formatBytes(physical)],
      ["protocols", "Protocols", protocols, protocols.length ? protocols.join(", ") : "none"],
      ...protocolFacts(fs, exports),
      [
        "snapshot_directory",
        "Snapshot directory",
        fs.snapshot_directory_enabled ?? null,
        onOff(fs.snapshot_directory_enabled),
      ],
      // Attached policies come from the array's policy-member endpoint (REST 1.5+); "–" before it.
      [
        "policies",
        "Policies",
        policies ?? null,
        policies === undefined ? "–" : policies.length ? policies.join(", ") : "none",
      ],
      ["hard_limit", "Hard limit", fs.hard_limit_enabled ?? false, fs.hard_limit_enabled ? "on" : "off"],
      ["snapshots", "Snapshots", snapshots, formatCount(snapshots)],
      ["replica_links", "Replica links", links.map(linkText), linksText(links)],
      ...(policies ? [["protected_by", "Protected by", null, protectionText(policies, links)] as Fact] : []),
      [
        "created",
        "Created",
        fs.created === undefined ? null : new Date(fs.created).toISOString(),
        fs.created === undefined ? "–" : formatWhen(fs.created, rctx.now, rctx.timeZone),
      ],
    ];
    if (fs.default_user_quota)
      facts.push([
        "default_user_quota",
        "Default user quota",
        fs.default_user_quota,
        formatBytes(fs.default_user_quota),
      ]);
    if (fs.default_group_quota)
      facts.push([
        "default_group_quota",
        "Default group quota",
        fs.default_group_quota,
        formatBytes(fs.default_group_quota),
      ]);
    const fields: Field[] = factFields(facts);
    const object = shownObject(fs.name, facts, { destroyed: fs.destroyed ?? false });
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
      return message(
        `${title} (destroyed)`,
        [
          ...blocks,
          {
            type: "section",
            text: rich`⚠ Destroyed: not serving clients.${left} Recover it with \`/array fs recover ${fs.name}\`.`,
          },
        ],
        { object },
      );
    }
    return message(`${title}: ${usageText(fs)}`, blocks, { object });
  },
});

/** "on", "off", or "–" when the array's version does not report the field. */
function onOff(v: boolean | undefined): string {
  return v === undefined ? "–" : v ? "on" : "off";
}

/** NFSv3 and NFSv4.1 apart (before REST 1.6 `nfs.enabled` is NFSv3 and v4.1 is not reported), rules, SMB, HTTP. */
function protocolFacts(fs: FileSystem, exports: FsExport | undefined): Fact[] {
  const nfs = fs.nfs;
  const acl = fs.smb?.acl_mode ?? fs.smb?.["acl-mode"];
  const smb = onOff(fs.smb?.enabled);
  const v3 = nfs?.v3_enabled ?? nfs?.enabled;
  return [
    ["nfs_v3", "NFSv3", v3 ?? null, onOff(v3)],
    ["nfs_v4_1", "NFSv4.1", nfs?.v4_1_enabled ?? null, onOff(nfs?.v4_1_enabled)],
    // One field on both generations: the rules in 1.x's `client(options)` form, after the policy's name on 2.x.
    exports?.policy !== undefined
      ? ["export_rules", "Export rules", exports.rules.map(ruleText).join(" "), exportText(exports)]
      : [
          "export_rules",
          "Export rules",
          nfs?.rules ?? null,
          nfs?.rules === undefined ? "–" : nfs.rules.trim() || "none (the array's default)",
        ],
    ["smb", "SMB", fs.smb?.enabled ?? null, fs.smb?.enabled && acl ? `${smb} (ACL mode ${acl})` : smb],
    ["http", "HTTP", fs.http?.enabled ?? null, onOff(fs.http?.enabled)],
  ];
}

/** The file system as values: every fact's raw value and text under its key. */

/** "outbound fb-dr-01:home (replicating)", as linksText shows each link. */
const linkText = (l: FileSystemReplicaLink) => linksText([l]);

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
