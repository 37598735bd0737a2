/**
 * The settings `fs update` can change, as a table: how each is typed, read from a file system, shown and asked
 * for. Version differences stay in the client (src/flashblade/wire.ts): a setting asks in the newest field
 * names, and planning the request refuses, before anything is sent, a field the array's version lacks.
 */
import { z } from "zod";
import { flag, objectName, size } from "../../src/core/words/arg-types.js";
import { textWire, wired } from "../../src/core/words/arg-wire.js";
import { formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { promotionOf } from "../../src/flashblade/index.js";
import type { FileSystem, FileSystemPatch } from "../../src/flashblade/types.js";
import { protocolsOf } from "../shared/file-system-facts.js";
import { policyArg } from "./policy-member.js";

/** NFS export rules as one line of text: `10.0.0.0/8(rw,no_root_squash) *(ro)`. */
export const exportRules = wired(
  z
    .string()
    .trim()
    .min(1, 'the export rules are empty; give e.g. "*(rw,no_root_squash)"')
    .max(4096, "the export rules are longer than 4096 characters")
    .refine((s) => !/\p{Cc}/u.test(s), "the export rules contain a line break or another control character"),
  textWire(4096, true),
);

export const args = z.object({
  name: objectName("file system name").describe("the file system"),
  nfs: flag().describe("--nfs turns NFSv3 on, --no-nfs turns every NFS version off"),
  nfsV3: flag().describe("--nfs-v3 turns NFSv3 on, --no-nfs-v3 off"),
  nfsV4: flag().describe("--nfs-v4 turns NFSv4.1 on, --no-nfs-v4 off (REST 1.6+)"),
  nfsRules: exportRules.optional().describe('NFS export rules, e.g. "10.0.0.0/8(rw) *(ro)"'),
  smb: flag().describe("--smb turns SMB on, --no-smb off"),
  smbAclMode: z.enum(["shared", "native"]).optional().describe("SMB ACL mode: shared or native"),
  http: flag().describe("--http turns HTTP on, --no-http off"),
  snapshotDirectory: flag().describe(
    "--snapshot-directory shows .snapshot, --no-snapshot-directory hides it",
  ),
  fastRemove: flag().describe("--fast-remove turns fast directory removal on, --no-fast-remove off"),
  hardLimit: flag().describe("--hard-limit caps usage at the size, --no-hard-limit lifts the cap"),
  defaultUserQuota: size().optional().describe("default quota per user (0 for none)"),
  defaultGroupQuota: size().optional().describe("default quota per group (0 for none)"),
  policy: policyArg,
  promotion: z
    .enum(["promoted", "demoted"])
    .optional()
    .describe("promoted, or demoted (a replica link's target; discards unreplicated data; REST 1.9+)"),
});
export type Args = z.output<typeof args>;

type Value = boolean | number | string;

/** One setting the command can change: how to read it from a file system and how to ask for it. */
export interface Setting {
  key: Exclude<keyof Args, "name" | "policy">;
  label: string;
  /** undefined: the array's version does not report it. */
  read(fs: FileSystem): Value | undefined;
  show(v: Value | undefined): string;
  patch(want: never): FileSystemPatch;
}

const onOff = (b: Value | undefined) => (b ? "on" : "off");
const quota = (n: Value | undefined) => (typeof n === "number" && n > 0 ? formatBytes(n) : "none");
const text = (s: Value | undefined) => (s === undefined || s === "" ? "not set" : String(s));
const quoted = (s: Value | undefined) => (s === undefined || s === "" ? "none" : `"${String(s)}"`);

export const SETTINGS: readonly Setting[] = [
  {
    key: "nfs",
    label: "NFS",
    read: (fs) => protocolsOf(fs).includes("NFS"),
    show: onOff,
    // The version-neutral switch: the client sends it as each version needs (1.6 split v3 and v4.1).
    patch: (want: boolean) => ({ nfs: { enabled: want } }),
  },
  {
    key: "nfsV3",
    label: "NFSv3",
    read: (fs) => fs.nfs?.v3_enabled ?? fs.nfs?.enabled ?? false,
    show: onOff,
    // Before 1.6 the client sends it as `enabled`, the only NFS switch there (it meant v3).
    patch: (want: boolean) => ({ nfs: { v3_enabled: want } }),
  },
  {
    key: "nfsV4",
    label: "NFSv4.1",
    read: (fs) => fs.nfs?.v4_1_enabled ?? false,
    show: onOff,
    // Refused by the client before 1.6, where NFSv4.1 does not exist.
    patch: (want: boolean) => ({ nfs: { v4_1_enabled: want } }),
  },
  {
    key: "nfsRules",
    label: "NFS export rules",
    read: (fs) => fs.nfs?.rules ?? "",
    show: quoted,
    // NfsRule.rules exists from 1.0: every version takes the whole rule text.
    patch: (want: string) => ({ nfs: { rules: want } }),
  },
  {
    key: "smb",
    label: "SMB",
    read: (fs) => fs.smb?.enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ smb: { enabled: want } }),
  },
  {
    key: "smbAclMode",
    label: "SMB ACL mode",
    read: (fs) => fs.smb?.acl_mode ?? fs.smb?.["acl-mode"],
    show: text,
    // `acl-mode` in 1.0–1.1, `acl_mode` from 1.2: the client renames it.
    patch: (want: string) => ({ smb: { acl_mode: want } }),
  },
  {
    key: "http",
    label: "HTTP",
    read: (fs) => fs.http?.enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ http: { enabled: want } }),
  },
  {
    key: "snapshotDirectory",
    label: "Snapshot directory",
    read: (fs) => fs.snapshot_directory_enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ snapshot_directory_enabled: want }),
  },
  {
    key: "fastRemove",
    label: "Fast remove",
    read: (fs) => fs.fast_remove_directory_enabled ?? false,
    show: onOff,
    patch: (want: boolean) => ({ fast_remove_directory_enabled: want }),
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
  {
    key: "promotion",
    label: "Promotion",
    // Undefined before 1.9 (no replication): then any request differs, and the client refuses it by version.
    read: (fs) => promotionOf(fs),
    show: (v) => (v === undefined ? "not reported" : String(v)),
    patch: (want: "promoted" | "demoted") => ({ requested_promotion_state: want }),
  },
];

/** Keys that switch a protocol: turning one off cuts its clients off. */
export const PROTOCOL_SWITCHES = new Set<Setting["key"]>(["nfs", "nfsV3", "nfsV4", "smb", "http"]);

export interface Change {
  setting: Setting;
  want: Value;
}

/** Merges one setting's patch into the whole, one level deep (nfs.v3_enabled and nfs.rules go together). */
function mergeInto(patch: FileSystemPatch, part: FileSystemPatch): void {
  const target = patch as Record<string, unknown>;
  for (const [k, v] of Object.entries(part)) {
    const cur = target[k];
    target[k] =
      v && typeof v === "object" && cur && typeof cur === "object" ? { ...cur, ...(v as object) } : v;
  }
}

/** The settings asked for that differ from the current state, and the patch that makes them so. */
export function diff(fs: FileSystem, a: Args): { patch: FileSystemPatch; changes: Change[] } {
  if (a.nfs !== undefined && (a.nfsV3 !== undefined || a.nfsV4 !== undefined)) {
    throw new UserFacingError(
      "INVALID_ARGUMENTS",
      "Give either --nfs/--no-nfs (NFS as a whole) or --nfs-v3/--nfs-v4 (one version each), not both.",
    );
  }
  const patch: FileSystemPatch = {};
  const changes: Change[] = [];
  for (const setting of SETTINGS) {
    const want = a[setting.key];
    if (want === undefined || want === setting.read(fs)) continue;
    mergeInto(patch, setting.patch(want as never));
    changes.push({ setting, want });
  }
  return { patch, changes };
}

/** "NFS on → off" from what was asked (for the impact, before anything is sent). */
export const intended = (c: Change, fs: FileSystem) =>
  `${c.setting.label} ${c.setting.show(c.setting.read(fs))} → ${c.setting.show(c.want)}`;
