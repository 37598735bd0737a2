/** Per-user and per-group quotas and usage on file systems. */

export type QuotaKind = "user" | "group";

export interface DirectoryEntry {
  id: number;
  name: string;
  /** A user's primary group, which owns the files the user writes. */
  gid?: number;
}

export interface QuotaRec {
  fileSystem: string;
  /** uid or gid. */
  subject: number;
  quota: number;
}

export function quotaKey(fileSystem: string, subject: number): string {
  return `${fileSystem}\u0000${subject}`;
}

export interface QuotaTables {
  directory: DirectoryEntry[];
  quotas: Map<string, QuotaRec>;
  /** Bytes used by a uid/gid on a file system, keyed like quotas. */
  usage: Map<string, number>;
}

export interface QuotaRenderContext {
  fileSystemId: string | undefined;
  defaultQuota: number;
  subjectName: string | undefined;
}

export function renderQuota(
  kind: QuotaKind,
  fileSystem: string,
  subject: number,
  quota: number | null,
  usage: number,
  ctx: QuotaRenderContext,
): Record<string, unknown> {
  return {
    name: `${fileSystem}/${ctx.subjectName ?? subject}`,
    file_system: { name: fileSystem, id: ctx.fileSystemId, resource_type: "file-systems" },
    file_system_default_quota: ctx.defaultQuota,
    quota,
    usage,
    [kind]: { id: subject, name: ctx.subjectName ?? null },
  };
}
