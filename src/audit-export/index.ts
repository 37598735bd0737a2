/**
 * `audit_export`: every chained audit record (src/core/audit/audit-chain.ts), in this process's chain order, to a file
 * of JSON lines and/or syslog. Each target has its own bounded queue, so a slow collector never holds up the
 * file, and neither ever holds up a command.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type { AuditExportConfig } from "../config/audit-export.js";
import type { ChainedRecord } from "../core/audit/audit-chain.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { fileTransport } from "./file.js";
import { createExportQueue, type ExportQueue, type Wait } from "./queue.js";
import { syslogMessage, syslogTransport } from "./syslog.js";

export interface AuditExport {
  /** Queues the record for every target; returns at once. */
  enqueue(rec: ChainedRecord): void;
  /** Resolves once every queued record was sent or dropped. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface AuditExportDeps {
  logger: Logger;
  /** Counts lines dropped past the queue's bound (the metric). */
  onDropped?: (target: string, n: number) => void;
  /** Resolves the configuration's relative paths (the config file's directory). */
  resolvePath?: (p: string) => string;
  wait?: Wait;
  backoffMs?: { first: number; max: number };
  hostname?: string;
  procId?: string;
}

export function openAuditExport(cfg: AuditExportConfig, deps: AuditExportDeps): AuditExport {
  const resolve = deps.resolvePath ?? ((p: string) => p);
  const common = {
    bound: cfg.queue,
    logger: deps.logger,
    ...(deps.onDropped ? { onDropped: deps.onDropped } : {}),
    ...(deps.wait ? { wait: deps.wait } : {}),
    ...(deps.backoffMs ? { backoffMs: deps.backoffMs } : {}),
  };
  const targets: { queue: ExportQueue; line: (r: ChainedRecord) => string }[] = [];
  if (cfg.file !== undefined) {
    const queue = createExportQueue({
      ...common,
      target: "file",
      transport: fileTransport(resolve(cfg.file)),
    });
    targets.push({ queue, line: (r) => `${JSON.stringify(r)}\n` });
  }
  if (cfg.syslog) {
    const s = cfg.syslog;
    // Read now, so a missing CA file stops the start-up with its path instead of failing every send.
    const ca = s.ca_file === undefined ? undefined : readCa(resolve(s.ca_file));
    const head = {
      appName: s.app_name,
      hostname: deps.hostname ?? hostname(),
      procId: deps.procId ?? String(process.pid),
    };
    const transport = syslogTransport({
      host: s.host,
      port: s.port,
      ...(s.tls ? { tls: ca === undefined ? {} : { ca } } : {}),
      ...head,
    });
    const queue = createExportQueue({ ...common, target: "syslog", transport });
    targets.push({ queue, line: (r) => syslogMessage(r, head) });
  }
  return {
    enqueue(rec) {
      for (const t of targets) t.queue.push(t.line(rec));
    },
    async flush() {
      await Promise.all(targets.map((t) => t.queue.flush()));
    },
    async close() {
      await Promise.all(targets.map((t) => t.queue.close()));
    },
  };
}

function readCa(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const reason = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
    throw new UserFacingError(
      "CONFIG_INVALID",
      `audit_export.syslog.ca_file: cannot read "${path}" (${reason})`,
    );
  }
}
