/**
 * `npm run audit:verify -- <file> [<file> …]`: checks exported audit records (audit_export.file) against their
 * hash chain (src/core/audit/audit-verify.ts). Prints `ok: N records, chain intact` and exits 0, or names the first
 * record by seq that was changed, removed or reordered and exits 1; 2 for a usage error or an unreadable file.
 * Several files are the exports of several replicas, checked as one chain.
 */
import { readFileSync } from "node:fs";
import { describeResult, verifyAuditFiles } from "../src/core/audit/audit-verify.js";
import { isEntryPoint } from "../src/entry-point.js";

export interface VerifyIO {
  out: (line: string) => void;
  err: (line: string) => void;
  readFile?: (path: string) => string;
}

export function auditVerifyMain(args: readonly string[], io: VerifyIO): number {
  const paths = args.filter((a) => a !== "--");
  if (paths.length === 0) {
    io.err("usage: npm run audit:verify -- <audit-file.jsonl> [<more files, one per replica> …]");
    return 2;
  }
  const read = io.readFile ?? ((p: string) => readFileSync(p, "utf8"));
  const files: { name: string; text: string }[] = [];
  for (const name of paths) {
    try {
      files.push({ name, text: read(name) });
    } catch (err) {
      io.err(`cannot read ${name}: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
  }
  const result = verifyAuditFiles(files);
  (result.ok ? io.out : io.err)(describeResult(result));
  return result.ok ? 0 : 1;
}

if (isEntryPoint(import.meta.url, process.argv[1])) {
  process.exitCode = auditVerifyMain(process.argv.slice(2), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  });
}
