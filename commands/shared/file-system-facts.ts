/** Facts about one file system that several commands show: space, protocols, snapshots, replica links. */

import type { CommandContext, StateValue } from "../../src/core/catalogue/define-command.js";
import { type Field, rich } from "../../src/core/presentation/message.js";
import { formatBytes, formatCount, formatDuration, formatPercent } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import type { FileSystem, FileSystemReplicaLink } from "../../src/flashblade/types.js";
import { generationOf } from "../../src/rest-spec/versions.js";
import { notFoundError } from "./found.js";

/** The file system, or a NOT_FOUND error that says where to look. */
export async function requireFileSystem(ctx: CommandContext, name: string): Promise<FileSystem> {
  const fs = await ctx.array.fileSystems.get(name);
  if (!fs) {
    throw await notFoundError(
      ctx,
      "/file-systems",
      name,
      `There is no file system named "${name}" on array ${ctx.arrayName}. List them with /array fs list --array ${ctx.arrayName}.`,
    );
  }
  return fs;
}

/** A file system that exists and is not destroyed: changing a destroyed one would only confuse its recovery. */
export async function requireLiveFileSystem(ctx: CommandContext, name: string): Promise<FileSystem> {
  const fs = await requireFileSystem(ctx, name);
  if (fs.destroyed) {
    throw new UserFacingError(
      "FS_DESTROYED",
      `${name} is destroyed; recover it first with /array fs recover ${name}.`,
    );
  }
  return fs;
}

export function usedBytes(fs: FileSystem): number {
  return fs.space?.virtual ?? 0;
}

export function protocolsOf(fs: FileSystem): string[] {
  const out: string[] = [];
  if (fs.nfs?.enabled || fs.nfs?.v3_enabled || fs.nfs?.v4_1_enabled) out.push("NFS");
  if (fs.smb?.enabled) out.push("SMB");
  if (fs.http?.enabled) out.push("HTTP");
  return out;
}

/** "700 GiB of 1 TiB (68.4%)"; provisioned 0 means unlimited. */
export function usageText(fs: FileSystem): string {
  const used = usedBytes(fs);
  const prov = fs.provisioned ?? 0;
  if (prov === 0) return `${formatBytes(used)} (no size limit)`;
  return `${formatBytes(used)} of ${formatBytes(prov)} (${formatPercent(used / prov)})`;
}

export function sizeText(bytes: number | undefined): string {
  return bytes === undefined || bytes === 0 ? "unlimited" : formatBytes(bytes);
}

export async function snapshotCount(ctx: CommandContext, fsName: string): Promise<number> {
  // A snapshot's source is a name in 1.x and a reference in 2.x (FixedLocationReference): filter on its name.
  const field = generationOf(await ctx.array.version()) === 2 ? "source.name" : "source";
  return ctx.array.count("/file-system-snapshots", { filter: eq(field, fsName) });
}

export interface FileSystemSurroundings {
  snapshots: number;
  links: FileSystemReplicaLink[];
}

export async function surroundings(
  ctx: CommandContext,
  fs: Pick<FileSystem, "name">,
): Promise<FileSystemSurroundings> {
  const [snapshots, links] = await Promise.all([
    snapshotCount(ctx, fs.name),
    ctx.array.replicaLinks.forFileSystem(fs.name),
  ]);
  return { snapshots, links };
}

export function linksText(links: readonly FileSystemReplicaLink[]): string {
  if (links.length === 0) return "none";
  return links
    .map(
      (l) =>
        `${l.direction ?? "?"} ${l.remote?.name ?? "?"}:${l.remote_file_system?.name ?? "?"} (${l.status ?? "?"})`,
    )
    .join(", ");
}

/** The facts shown before any change to a file system. */
export function impactFacts(fs: FileSystem, around: FileSystemSurroundings): Field[] {
  const protocols = protocolsOf(fs);
  const facts: Field[] = [
    { label: "Used", value: rich`${usageText(fs)}` },
    { label: "Snapshots", value: rich`${formatCount(around.snapshots)}` },
    { label: "Protocols enabled", value: rich`${protocols.length ? protocols.join(", ") : "none"}` },
    { label: "Replica links", value: rich`${linksText(around.links)}` },
  ];
  if (fs.destroyed && fs.time_remaining !== undefined) {
    facts.push({ label: "Eradicated automatically in", value: rich`${formatDuration(fs.time_remaining)}` });
  }
  return facts;
}

/**
 * The state a gated change rests on; any difference at execution time voids the request. Exact usage is left
 * out on purpose: on a live array it moves with every write, and a request voided by that would never run.
 * Commands whose decision does rest on usage add a yes/no fact about it (see resize).
 */
export function fingerprintState(
  fs: FileSystem,
  around?: FileSystemSurroundings,
): Record<string, StateValue> {
  return {
    exists: true,
    destroyed: fs.destroyed ?? false,
    provisioned_bytes: fs.provisioned ?? 0,
    hard_limit: fs.hard_limit_enabled ?? false,
    protocols: protocolsOf(fs).join(",") || "none",
    ...(around ? { snapshots: around.snapshots, replica_links: around.links.length } : {}),
  };
}
