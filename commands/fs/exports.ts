/**
 * A file system's NFS export rules in one shape whichever generation the array speaks: REST 1.x keeps them in the
 * file system's own `nfs.rules` string; REST 2.x in an export policy (2.3) named by the file system's export
 * (`/file-system-exports`, 2.16) or its `nfs.export_policy`, with ordered rules. Which client may mount is decided
 * here the way the array does: rules in order, the first whose client matches wins.
 */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import type { FileSystem } from "../../src/flashblade/types.js";
import { atLeast, generationOf } from "../../src/rest-spec/versions.js";

export interface ExportRule {
  client: string;
  /** "rw" or "ro". */
  permission: string;
  /**
   * "root-squash", "no-squash" or "all-squash": 2.x's words (Pure's SDK; its 2.23 presets say "no-root-squash",
   * read as "no-squash"); 1.x's options are read into them.
   */
  access: string;
}

export interface FsExport {
  /** The export policy (REST 2.x); undefined where the rules are the file system's own (1.x, or 2.x without one). */
  policy?: string;
  rules: ExportRule[];
}

interface RuleItem {
  client?: string;
  permission?: string;
  access?: string;
  index?: number;
  policy?: { name?: string };
}
interface ExportItem {
  member?: { name?: string };
  policy?: { name?: string };
  policy_type?: string;
}

/** "10.1.0.0/16(rw,no_root_squash) *(ro)" → rules; options the array defaults are filled as it fills them. */
export function parseRules(text: string | undefined): ExportRule[] {
  const out: ExportRule[] = [];
  for (const m of (text ?? "").matchAll(/([^\s(]+)(?:\(([^)]*)\))?/g)) {
    const opts = (m[2] ?? "").split(",").map((o) => o.trim());
    out.push({
      client: m[1] ?? "*",
      permission: opts.includes("ro") ? "ro" : "rw",
      access: opts.includes("no_root_squash")
        ? "no-squash"
        : opts.includes("all_squash")
          ? "all-squash"
          : "root-squash",
    });
  }
  return out;
}

/** 2.x's access words as 1.x's rule options. */
const OPTION: Readonly<Record<string, string>> = {
  "no-squash": "no_root_squash",
  "no-root-squash": "no_root_squash",
};

/** A rule in the one form both generations show: 1.x's own `client(options)`. */
export function ruleText(r: ExportRule): string {
  return `${r.client}(${r.permission},${OPTION[r.access] ?? r.access.replaceAll("-", "_")})`;
}

/** The export rules of `fs` (already read), from its export policy on 2.x when it has one. */
export async function exportOf(ctx: CommandContext, fs: FileSystem): Promise<FsExport> {
  const version = await ctx.array.version();
  const own = { rules: parseRules(fs.nfs?.rules) };
  if (generationOf(version) !== 2 || !atLeast(version, "2.3")) return own;
  const policy = await exportPolicyOf(ctx, fs, version);
  if (!policy) return own;
  return { policy, rules: await policyRules(ctx, policy) };
}

async function exportPolicyOf(
  ctx: CommandContext,
  fs: FileSystem,
  version: string,
): Promise<string | undefined> {
  if (atLeast(version, "2.16")) {
    // The listing takes no member parameter: an array has one export per shared file system and protocol.
    for await (const e of ctx.array.iterate<ExportItem>("/file-system-exports"))
      if (e.member?.name === fs.name && (e.policy_type ?? "nfs") === "nfs" && e.policy?.name)
        return e.policy.name;
  }
  const named = (fs.nfs as { export_policy?: { name?: string } } | undefined)?.export_policy?.name;
  return named || undefined;
}

/** A policy's rules in the order the array applies them. */
export async function policyRules(ctx: CommandContext, policy: string): Promise<ExportRule[]> {
  const page = await ctx.array.get<RuleItem>("/nfs-export-policies/rules", {
    query: { policy_names: policy },
  });
  return page.items
    .filter((r) => r.policy?.name === policy)
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map(asRule);
}

export function asRule(r: RuleItem): ExportRule {
  const access = r.access === "no-root-squash" ? "no-squash" : (r.access ?? "root-squash");
  return { client: r.client ?? "*", permission: r.permission ?? "rw", access };
}

/** The one field `fs show` gives on either generation. */
export function exportText(e: FsExport): string {
  const rules = e.rules.map(ruleText).join(" ");
  if (e.policy !== undefined) return `policy ${e.policy}: ${rules || "no rules (no client may mount)"}`;
  return rules || "none (the array's default)";
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipNumber(ip: string): number | undefined {
  const m = IPV4.exec(ip);
  if (!m) return undefined;
  return m.slice(1).reduce((n, part) => n * 256 + Number(part), 0);
}

/** Whether a rule's client (`*`, an address, a CIDR block, a host name or a wildcard) covers `client`. */
export function covers(pattern: string, client: string): boolean {
  if (pattern === "*") return true;
  const p = pattern.toLowerCase();
  const c = client.toLowerCase();
  if (p === c) return true;
  const [net, bits] = p.split("/");
  const ip = ipNumber(c.split("/")[0] ?? "");
  const base = ipNumber(net ?? "");
  if (bits !== undefined && ip !== undefined && base !== undefined) {
    const width = Number(bits);
    const cWidth = Number(c.split("/")[1] ?? 32);
    if (cWidth < width) return false;
    const mask = width === 0 ? 0 : (0xffffffff << (32 - width)) >>> 0;
    return (ip & mask) >>> 0 === (base & mask) >>> 0;
  }
  if (/[*?]/.test(p) && ip === undefined) {
    const re = new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replaceAll("*", ".*")
        .replaceAll("?", ".")}$`,
    );
    return re.test(c);
  }
  return false;
}

/** The rule that decides for `client` (the first that covers it), with its position from 1; none: no mount. */
export function firstMatch(
  rules: readonly ExportRule[],
  client: string,
): { rule: ExportRule; at: number } | undefined {
  const at = rules.findIndex((r) => covers(r.client, client));
  const rule = rules[at];
  return rule ? { rule, at: at + 1 } : undefined;
}

/** "rw, no-squash", or "none" when no rule lets it mount. */
export function accessText(rules: readonly ExportRule[], client: string): string {
  const m = firstMatch(rules, client);
  return m ? `${m.rule.permission}, ${m.rule.access}` : "none";
}

/**
 * What changing a policy's rules from `before` to `after` does to each client either set names: the ones that
 * may mount only after (added), only before (dropped), and those whose access changes.
 */
export function clientChanges(
  before: readonly ExportRule[],
  after: readonly ExportRule[],
): { added: string[]; dropped: string[]; changed: string[] } {
  const clients = [...new Set([...before, ...after].map((r) => r.client))];
  const added: string[] = [];
  const dropped: string[] = [];
  const changed: string[] = [];
  for (const c of clients) {
    const was = accessText(before, c);
    const now = accessText(after, c);
    if (was === now) continue;
    if (was === "none") added.push(`${c} (${now})`);
    else if (now === "none") dropped.push(`${c} (was ${was})`);
    else changed.push(`${c}: ${was} → ${now}`);
  }
  return { added, dropped, changed };
}
