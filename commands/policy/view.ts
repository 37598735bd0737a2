/**
 * Read-only policy commands: list, show, members, gaps (file systems nothing protects). Hand-written because each
 * joins the policies with their members on two endpoints (file systems and replica links) and the snapshots they
 * made, and shows rules in words; gaps is the complement (file systems in no policy and no link), not a listing.
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import { eq } from "../../src/flashblade/filter.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { sizeText, usedBytes } from "../shared/file-system-facts.js";
import { arraysCovered, listingMessage, rowsListing } from "../shared/listing.js";
import { type Fact, factFields, shownObject } from "../shared/shown.js";
import {
  fileSystemMembers,
  linkMembers,
  listPolicies,
  perFileSystem,
  policyFacts,
  replicatedFileSystems,
  requirePolicyApi,
  rulesOf,
  total,
} from "./read.js";
import { rulesText } from "./rules.js";

const nameArgs = z.object({ name: objectName("policy name").describe("the policy") });
/** What policyFacts reads: show and members answer from the same facts of one policy. */
const FACTS_READS = [
  "GET /file-system-snapshots",
  "GET /policies",
  "GET /policies/file-system-replica-links",
  "GET /policies/file-systems",
];

interface PolicyRow {
  array: string;
  name: string;
  enabled: boolean;
  rules: string;
  fileSystems: string[];
  links: number;
}

export const policyList = defineCommand({
  verb: "list",
  summary: "List snapshot policies: rules, enabled, what they protect",
  examples: ["policy list", "policy list --array all"],
  role: "viewer",
  endpoints: ["GET /policies", "GET /policies/file-system-replica-links", "GET /policies/file-systems"],
  args: z.object({}),
  async run(_a, ctx): Promise<{ rows: PolicyRow[] }> {
    await requirePolicyApi(ctx);
    const [policies, fsPairs, linkPairs] = await Promise.all([
      listPolicies(ctx),
      fileSystemMembers(ctx),
      linkMembers(ctx),
    ]);
    return {
      rows: policies.map((p) => ({
        array: ctx.arrayName,
        name: p.name,
        enabled: p.enabled ?? true,
        rules: rulesText(rulesOf(p)),
        fileSystems: fsPairs.filter(([pn]) => pn === p.name).map(([, fs]) => fs),
        links: linkPairs.filter(([pn]) => pn === p.name).length,
      })),
    };
  },
  merge: (results) => ({ rows: results.flatMap((r) => r.result.rows) }),
  render: ({ rows }, _a, rctx) =>
    rowsListing(
      rctx,
      rows.map((r) => ({
        array: r.array,
        name: r.name,
        enabled: r.enabled ? "yes" : "no",
        rules: r.rules,
        fs: r.fileSystems.length ? r.fileSystems.join(", ") : "–",
        links: String(r.links),
      })),
      {
        empty: (where) =>
          `No snapshot policies on ${where}. Create one with /array policy create <name> --rules "every 1d at 02:00, keep 7d".`,
        headline: (where) => `${countOf(rows.length, "snapshot policy", "snapshot policies")} on ${where}`,
        title: (where) => `Snapshot policies on ${where}`,
        filename: "policies.csv",
        columns: {
          name: "Policy",
          enabled: "Enabled",
          rules: "Rules",
          fs: "File systems",
          links: "Replica links",
        },
        right: ["links"],
        values: rows.map((r) => ({
          array: r.array,
          name: r.name,
          enabled: r.enabled,
          rules: r.rules,
          fs: r.fileSystems,
          links: r.links,
        })),
      },
    ),
});

export const policyShow = defineCommand({
  verb: "show",
  summary: "Show one policy: its rules, members and the snapshots it manages",
  examples: ["policy show daily"],
  role: "viewer",
  endpoints: FACTS_READS,
  positional: ["name"],
  args: nameArgs,
  run: (a, ctx) => policyFacts(ctx, a.name),
  render(f, _a, rctx) {
    const title = `Policy ${f.policy.name} on ${rctx.arrays[0] ?? "?"}`;
    const enabled = f.policy.enabled !== false;
    const n = total(f.snapshots);
    const facts: Fact[] = [
      ["enabled", "Enabled", enabled, enabled ? "yes" : "no (no snapshots are taken)"],
      ["rules", "Rules", rulesText(rulesOf(f.policy)), rulesText(rulesOf(f.policy))],
      [
        "file_systems",
        "File systems",
        f.fileSystems,
        f.fileSystems.length ? f.fileSystems.join(", ") : "none",
      ],
      [
        "replica_links",
        "Replica links",
        f.links.map((l) => `${l.fs} → ${l.remote}`),
        f.links.length ? f.links.map((l) => `${l.fs} → ${l.remote}`).join(", ") : "none",
      ],
      ["snapshots", "Snapshots it manages", n, n ? `${n} (${perFileSystem(f.snapshots)})` : "none"],
    ];
    return message(
      `${title}: ${rulesText(rulesOf(f.policy))}`,
      [
        { type: "header", text: title },
        { type: "fields", fields: factFields(facts) },
      ],
      { object: shownObject(f.policy.name, facts) },
    );
  },
});

export const policyMembers = defineCommand({
  verb: "members",
  summary: "What a policy protects: file systems and replica links, with the snapshots it made of each",
  examples: ["policy members daily"],
  role: "viewer",
  endpoints: FACTS_READS,
  positional: ["name"],
  args: nameArgs,
  run: (a, ctx) => policyFacts(ctx, a.name),
  render(f, _a, rctx) {
    const where = rctx.arrays[0] ?? "?";
    const rows = [
      ...f.fileSystems.map((fs) => ({
        member: fs,
        type: "file system",
        snapshots: String(f.snapshots.get(fs) ?? 0),
      })),
      ...f.links.map((l) => ({ member: `${l.fs} → ${l.remote}`, type: "replica link", snapshots: "–" })),
    ];
    const headline = `${countOf(rows.length, "member")} of policy ${f.policy.name} on ${where}`;
    if (rows.length === 0) {
      const text = `Policy ${f.policy.name} on ${where} protects nothing. Attach it with /array policy attach ${f.policy.name} <file system>.`;
      return message(text, [{ type: "section", text: rich`${text}` }]);
    }
    const table = truncatedTable(
      [
        { key: "member", label: "Member" },
        { key: "type", label: "Type" },
        { key: "snapshots", label: "Snapshots", align: "right" },
      ],
      rows,
      { limit: rctx.tableRows, filename: "policy-members.csv", title: headline },
    );
    return listingMessage(headline, table);
  },
});

interface GapRow {
  array: string;
  name: string;
  used: number;
  provisioned: number;
}

export const policyGaps = defineCommand({
  verb: "gaps",
  summary: "File systems with no snapshot policy and no replica link: unprotected, largest first",
  examples: ["policy gaps", "policy gaps --array all"],
  role: "viewer",
  endpoints: [
    "GET /file-system-replica-links",
    "GET /file-systems",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
  ],
  args: z.object({}),
  async run(_a, ctx): Promise<{ rows: GapRow[]; policiesSupported: boolean[] }> {
    const supported = await ctx.array.supports("1.5");
    const [fsPairs, linkPairs, links] = await Promise.all([
      supported ? fileSystemMembers(ctx) : Promise.resolve([]),
      supported ? linkMembers(ctx) : Promise.resolve([]),
      replicatedFileSystems(ctx),
    ]);
    const covered = new Set([...fsPairs.map(([, fs]) => fs), ...linkPairs.map(([, l]) => l.fs), ...links]);
    const rows: GapRow[] = [];
    const query = (await ctx.array.supports("1.1")) ? { filter: eq("destroyed", false) } : {};
    for await (const fs of ctx.array.iterate("/file-systems", { query, schema: fileSystemSchema })) {
      if (fs.destroyed || covered.has(fs.name)) continue;
      rows.push({
        array: ctx.arrayName,
        name: fs.name,
        used: usedBytes(fs),
        provisioned: fs.provisioned ?? 0,
      });
    }
    rows.sort((a, b) => b.used - a.used || a.name.localeCompare(b.name));
    return { rows, policiesSupported: [supported] };
  },
  merge: (results) => ({
    rows: results.flatMap((r) => r.result.rows),
    policiesSupported: results.flatMap((r) => r.result.policiesSupported),
  }),
  render({ rows, policiesSupported }, _a, rctx) {
    const { many, where } = arraysCovered(rctx);
    const old = policiesSupported.some((s) => !s)
      ? [
          {
            type: "context" as const,
            text: rich`Arrays older than REST 1.5 have no snapshot policies; only replica links count there.`,
          },
        ]
      : [];
    if (rows.length === 0) {
      const text = `Every file system on ${where} has a snapshot policy or a replica link.`;
      return message(text, [{ type: "section", text: rich`${text}` }, ...old]);
    }
    const sum = rows.reduce((n, r) => n + r.used, 0);
    const headline = `${countOf(rows.length, "file system")} on ${where} with no snapshot policy and no replica link (${formatBytes(sum)})`;
    const table = truncatedTable(
      [
        ...(many ? [{ key: "array", label: "Array" }] : []),
        { key: "name", label: "File system" },
        { key: "used", label: "Used", align: "right" as const },
        { key: "size", label: "Size", align: "right" as const },
      ],
      rows.map((r) => ({
        array: r.array,
        name: r.name,
        used: formatBytes(r.used),
        size: sizeText(r.provisioned),
      })),
      { limit: rctx.tableRows, filename: "unprotected.csv", title: headline },
    );
    const msg = listingMessage(headline, table);
    msg.blocks.push(
      { type: "context", text: rich`Protect one with /array policy attach <policy> <file system>.` },
      ...old,
    );
    return msg;
  },
});
