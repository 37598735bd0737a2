import { z } from "zod";
import { flag, objectName, size } from "../../src/core/arg-types.js";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { type Field, message, rich } from "../../src/core/message.js";
import { formatBytes } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { FileSystem, FileSystemPatch } from "../../src/flashblade/types.js";
import {
  fingerprintState,
  protocolsOf,
  requireFileSystem,
  requireLiveFileSystem,
  usedBytes,
} from "../shared/file-system-facts.js";
import { onlyItem, sendPlanned } from "../shared/plan.js";

const args = z.object({
  name: objectName("file system name").describe("the file system"),
  nfs: flag().describe("--nfs turns NFS on, --no-nfs off"),
  smb: flag().describe("--smb turns SMB on, --no-smb off"),
  http: flag().describe("--http turns HTTP on, --no-http off"),
  hardLimit: flag().describe("--hard-limit caps usage at the size, --no-hard-limit lifts the cap"),
  defaultUserQuota: size().optional().describe("default quota per user (0 for none)"),
  defaultGroupQuota: size().optional().describe("default quota per group (0 for none)"),
});
type Args = z.output<typeof args>;

/** One setting the command can change: how to read it from a file system and how to ask for it. */
interface Setting {
  key: "nfs" | "smb" | "http" | "hardLimit" | "defaultUserQuota" | "defaultGroupQuota";
  label: string;
  read(fs: FileSystem): boolean | number;
  show(v: boolean | number): string;
  patch(want: never): FileSystemPatch;
}

const PROTOCOLS = new Set<Setting["key"]>(["nfs", "smb", "http"]);
const onOff = (b: boolean | number) => (b ? "on" : "off");
const quota = (n: boolean | number) => (typeof n === "number" && n > 0 ? formatBytes(n) : "none");

const SETTINGS: readonly Setting[] = [
  {
    key: "nfs",
    label: "NFS",
    read: (fs) => protocolsOf(fs).includes("NFS"),
    show: onOff,
    // The version-neutral switch: the client sends it as each version needs (1.6 split v3 and v4.1).
    patch: (want: boolean) => ({ nfs: { enabled: want } }),
  },
  {
    key: "smb",
    label: "SMB",
    read: (fs) => fs.smb?.enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ smb: { enabled: want } }),
  },
  {
    key: "http",
    label: "HTTP",
    read: (fs) => fs.http?.enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ http: { enabled: want } }),
  },
  {
    key: "hardLimit",
    label: "Hard limit",
    read: (fs) => fs.hard_limit_enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ hard_limit_enabled: want }),
  },
  {
    key: "defaultUserQuota",
    label: "Default user quota",
    read: (fs) => fs.default_user_quota ?? 0,
    show: quota,
    patch: (want: number) => ({ default_user_quota: want }),
  },
  {
    key: "defaultGroupQuota",
    label: "Default group quota",
    read: (fs) => fs.default_group_quota ?? 0,
    show: quota,
    patch: (want: number) => ({ default_group_quota: want }),
  },
];

interface Change {
  setting: Setting;
  want: boolean | number;
}

/** The settings asked for that differ from the current state, and the patch that makes them so. */
function diff(fs: FileSystem, a: Args): { patch: FileSystemPatch; changes: Change[] } {
  const patch: FileSystemPatch = {};
  const changes: Change[] = [];
  for (const setting of SETTINGS) {
    const want = a[setting.key];
    if (want === undefined || want === setting.read(fs)) continue;
    Object.assign(patch, setting.patch(want as never));
    changes.push({ setting, want });
  }
  return { patch, changes };
}

/** "NFS on → off" from what was asked (for the impact, before anything is sent). */
const intended = (c: Change, fs: FileSystem) =>
  `${c.setting.label} ${c.setting.show(c.setting.read(fs))} → ${c.setting.show(c.want)}`;

/** "NFS: on → off" from the state read back; a setting the array did not take says so. */
export function appliedLine(c: { label: string; before: string; after: string; wanted: string }): string {
  if (c.after === c.wanted) return `${c.label}: ${c.before} → ${c.after}`;
  return `${c.label}: still ${c.after} (asked for ${c.wanted}; the array did not apply it)`;
}

/** Turning the hard limit on while usage already exceeds the size: the array needs ignore_usage. */
function limitOverUsage(fs: FileSystem, patch: FileSystemPatch): boolean {
  const prov = fs.provisioned ?? 0;
  return patch.hard_limit_enabled === true && prov > 0 && usedBytes(fs) > prov;
}

export const fsUpdate = defineCommand({
  verb: "update",
  summary: "Turn protocols or the hard limit on or off, set default quotas",
  examples: [
    "fs update projects --nfs --no-smb",
    "fs update scratch --hard-limit",
    "fs update home --default-user-quota 50G",
  ],
  role: "operator",
  visibility: "in_channel",
  positional: ["name"],
  args,
  async impact(a, ctx): Promise<Impact> {
    const fs = await requireLiveFileSystem(ctx, a.name);
    const { patch, changes } = diff(fs, a);
    if (changes.length === 0 && !ctx.recheck) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change on ${a.name}: give at least one setting that differs (e.g. --nfs, --no-smb, --hard-limit).`,
      );
    }
    const over = limitOverUsage(fs, patch);
    const request = await ctx.array.fileSystems.planUpdate(a.name, patch, { ignoreUsage: over });
    const facts: Field[] = changes.map((c) => ({
      label: c.setting.label,
      value: rich`${c.setting.show(c.setting.read(fs))} → ${c.setting.show(c.want)}`,
    }));
    const warnings = [];
    if (over) {
      warnings.push(
        rich`${a.name} holds ${formatBytes(usedBytes(fs))}, more than its ${formatBytes(fs.provisioned ?? 0)} size; with the hard limit on, every write will fail until usage drops below the size.`,
      );
    }
    const turnedOff = changes.filter((c) => PROTOCOLS.has(c.setting.key) && c.want === false);
    if (turnedOff.length > 0) {
      warnings.push(
        rich`Clients using ${turnedOff.map((c) => c.setting.label).join(" or ")} lose access to ${a.name} at once.`,
      );
    }
    return {
      target: `file system ${a.name}`,
      summary: rich`Updates *${a.name}* on ${ctx.arrayName}: ${changes.map((c) => intended(c, fs)).join("; ")}.`,
      facts,
      warnings,
      state: {
        ...fingerprintState(fs),
        ...(patch.hard_limit_enabled === true ? { used_over_size: over } : {}),
        ...(turnedOff.length > 0 ? { turns_protocol_off: true } : {}),
      },
      requests: [request],
    };
  },
  destructive(_a, impact) {
    if (impact.state["used_over_size"] === true) return "shrink_below_usage";
    return impact.state["turns_protocol_off"] === true ? "disable_protocol" : null;
  },
  gateClasses: ["shrink_below_usage", "disable_protocol"],
  async run(a, ctx, impact) {
    const before = await requireFileSystem(ctx, a.name);
    const { changes } = diff(before, a);
    const after = onlyItem(ctx, "/file-systems", await sendPlanned(ctx, impact, fileSystemSchema));
    // Reported from what the array returned, so a setting it did not take is not announced as done.
    const lines = changes.map((c) =>
      appliedLine({
        label: c.setting.label,
        before: c.setting.show(c.setting.read(before)),
        after: c.setting.show(c.setting.read(after)),
        wanted: c.setting.show(c.want),
      }),
    );
    return { name: after.name, lines };
  },
  render({ name, lines }, _a, rctx) {
    const text = lines.join("; ");
    return message(
      `Updated ${name} on ${rctx.arrays[0] ?? "?"}: ${text}.`,
      [{ type: "section", text: rich`Updated *${name}* on ${rctx.arrays[0] ?? "?"}: ${text}.` }],
      { visibility: "in_channel" },
    );
  },
});
