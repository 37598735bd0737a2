import { z } from "zod";
import { flag, objectName, size } from "../../src/core/arg-types.js";
import { defineCommand, type Impact } from "../../src/core/define-command.js";
import { type Field, message, rich } from "../../src/core/message.js";
import { formatBytes } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";
import type { FileSystem, FileSystemPatch } from "../../src/flashblade/types.js";
import { fileSystemPatchBody, selectOne } from "../../src/flashblade/wire.js";
import {
  fingerprintState,
  protocolsOf,
  requireFileSystem,
  requireLiveFileSystem,
  usedBytes,
} from "../shared/file-system-facts.js";
import { planned } from "../shared/plan.js";

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

interface Change {
  label: string;
  from: string;
  to: string;
}

const onOff = (b: boolean | undefined) => (b ? "on" : "off");
const quota = (n: number | undefined) => (n ? formatBytes(n) : "none");

/** The patch with only what differs from the current state, and a line per change. */
function diff(fs: FileSystem, a: Args): { patch: FileSystemPatch; changes: Change[] } {
  const patch: FileSystemPatch = {};
  const changes: Change[] = [];
  const proto = (key: "nfs" | "smb" | "http", want: boolean | undefined, label: string) => {
    const have = key === "nfs" ? protocolsOf(fs).includes("NFS") : (fs[key]?.enabled ?? false);
    if (want === undefined || want === have) return;
    patch[key] = { enabled: want };
    changes.push({ label, from: onOff(have), to: onOff(want) });
  };
  proto("nfs", a.nfs, "NFS");
  proto("smb", a.smb, "SMB");
  proto("http", a.http, "HTTP");
  if (a.hardLimit !== undefined && a.hardLimit !== (fs.hard_limit_enabled ?? false)) {
    patch.hard_limit_enabled = a.hardLimit;
    changes.push({ label: "Hard limit", from: onOff(fs.hard_limit_enabled), to: onOff(a.hardLimit) });
  }
  if (a.defaultUserQuota !== undefined && a.defaultUserQuota !== (fs.default_user_quota ?? 0)) {
    patch.default_user_quota = a.defaultUserQuota;
    changes.push({
      label: "Default user quota",
      from: quota(fs.default_user_quota),
      to: quota(a.defaultUserQuota),
    });
  }
  if (a.defaultGroupQuota !== undefined && a.defaultGroupQuota !== (fs.default_group_quota ?? 0)) {
    patch.default_group_quota = a.defaultGroupQuota;
    changes.push({
      label: "Default group quota",
      from: quota(fs.default_group_quota),
      to: quota(a.defaultGroupQuota),
    });
  }
  return { patch, changes };
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
    if (changes.length === 0) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change on ${a.name}: give at least one setting that differs (e.g. --nfs, --no-smb, --hard-limit).`,
      );
    }
    const over = limitOverUsage(fs, patch);
    const version = await ctx.array.version();
    const query = {
      ...selectOne(ctx.arrayName, version, "/file-systems", { name: a.name }),
      ...(over ? { ignore_usage: true } : {}),
    };
    const facts: Field[] = changes.map((c) => ({ label: c.label, value: rich`${c.from} → ${c.to}` }));
    const warnings = [];
    if (over) {
      warnings.push(
        rich`${a.name} holds ${formatBytes(usedBytes(fs))}, more than its ${formatBytes(fs.provisioned ?? 0)} size; with the hard limit on, every write will fail until usage drops below the size.`,
      );
    }
    if (patch.nfs?.enabled === false || patch.smb?.enabled === false || patch.http?.enabled === false) {
      warnings.push(rich`Clients using a protocol that is turned off lose access to ${a.name}.`);
    }
    return {
      target: `file system ${a.name}`,
      summary: rich`Updates *${a.name}* on ${ctx.arrayName}: ${changes.map((c) => `${c.label} ${c.from} → ${c.to}`).join("; ")}.`,
      facts,
      warnings,
      state: fingerprintState(fs),
      requests: [
        planned("PATCH", "/file-systems", query, fileSystemPatchBody(ctx.arrayName, version, patch)),
      ],
    };
  },
  destructive(a, impact) {
    const used = impact.state["used_bytes"];
    const prov = impact.state["provisioned_bytes"];
    const turningOn = a.hardLimit === true && impact.state["hard_limit"] === false;
    return turningOn && typeof used === "number" && typeof prov === "number" && prov > 0 && used > prov
      ? "shrink_below_usage"
      : null;
  },
  async run(a, ctx) {
    const fs = await requireFileSystem(ctx, a.name);
    const { patch, changes } = diff(fs, a);
    const updated = await ctx.array.fileSystems.update(a.name, patch, {
      ignoreUsage: limitOverUsage(fs, patch),
    });
    return { fs: updated, changes };
  },
  render({ fs, changes }, _a, rctx) {
    const lines = changes.map((c) => `${c.label}: ${c.from} → ${c.to}`).join("; ");
    return message(
      `Updated ${fs.name} on ${rctx.arrays[0] ?? "?"}: ${lines}.`,
      [{ type: "section", text: rich`Updated *${fs.name}* on ${rctx.arrays[0] ?? "?"}: ${lines}.` }],
      { visibility: "in_channel" },
    );
  },
});
