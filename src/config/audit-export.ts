/**
 * `audit_export:` where every audit record also goes, for a SIEM or an archive: a file of JSON lines and/or
 * syslog (RFC 5424, octet-counted over TCP or TLS). Paths are relative to the configuration file's directory.
 */
import { z } from "zod";

export const auditSyslogSchema = z.strictObject({
  host: z.string().min(1).max(253),
  port: z.number().int().min(1).max(65_535),
  /** TLS with the system's CAs, or `ca_file`'s. */
  tls: z.boolean().default(false),
  ca_file: z.string().min(1).optional(),
  /** APP-NAME of each message: printable ASCII, at most 48 characters (RFC 5424). */
  app_name: z
    .string()
    .regex(/^[!-~]{1,48}$/, "1 to 48 printable ASCII characters, no spaces")
    .default("array-chatops"),
});

export const auditExportSchema = z
  .strictObject({
    /** Appends one JSON line per record, in this replica's chain order. */
    file: z.string().min(1).optional(),
    syslog: auditSyslogSchema.optional(),
    /** Records that may wait for a slow target; past it the oldest are dropped, counted and logged. */
    queue: z.number().int().min(10).max(1_000_000).default(10_000),
  })
  .superRefine((s, ctx) => {
    if (s.file === undefined && s.syslog === undefined)
      ctx.addIssue({ code: "custom", message: "give a file, a syslog target or both" });
    if (s.syslog?.ca_file !== undefined && !s.syslog.tls)
      ctx.addIssue({ code: "custom", path: ["syslog", "ca_file"], message: "ca_file needs tls: true" });
  });

export type AuditExportConfig = z.output<typeof auditExportSchema>;
export type AuditSyslogConfig = z.output<typeof auditSyslogSchema>;
