/**
 * Reading snapshot policies back: the policy, its members (file systems; replica links from 1.9) and the
 * snapshots it manages per file system. Policies arrived in REST 1.5.
 */
import { z } from "zod";
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { and, eq } from "../../src/flashblade/filter.js";
import { snapshotSchema } from "../../src/flashblade/schemas.js";
import { requireApi } from "../../src/flashblade/wire.js";
import { notFoundError } from "../shared/found.js";
import type { Rule } from "./rules.js";

const ref = z.looseObject({ name: z.string().optional(), id: z.string().optional() });

export const policySchema = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  enabled: z.boolean().optional(),
  rules: z
    .array(
      z.looseObject({
        every: z.number(),
        keep_for: z.number(),
        at: z.number().optional(),
        time_zone: z.string().optional(),
      }),
    )
    .optional(),
});
export type Policy = z.output<typeof policySchema>;

const memberSchema = z.looseObject({
  policy: ref.optional(),
  member: ref.optional(),
  link: z.looseObject({ local_file_system: ref.optional(), remote: ref.optional() }).optional(),
});

export interface LinkMember {
  fs: string;
  remote: string;
}

export interface PolicyFacts {
  policy: Policy;
  fileSystems: string[];
  links: LinkMember[];
  /** Live snapshots the policy manages, per file system. */
  snapshots: Map<string, number>;
  /** Their creation times, per file system. */
  created: Map<string, number[]>;
}

export async function requirePolicyApi(ctx: CommandContext): Promise<void> {
  await requireApi(ctx, "1.5", "The snapshot policy API");
}

export function rulesOf(p: Policy): Rule[] {
  return (p.rules ?? []).map((r) => ({
    every: r.every,
    keep_for: r.keep_for,
    at: r.at,
    time_zone: r.time_zone,
  }));
}

export async function listPolicies(ctx: CommandContext): Promise<Policy[]> {
  const out: Policy[] = [];
  for await (const p of ctx.array.iterate("/policies", { schema: policySchema })) out.push(p);
  return out;
}

export async function requirePolicy(ctx: CommandContext, name: string): Promise<Policy> {
  await requirePolicyApi(ctx);
  const page = await ctx.array.get("/policies", {
    query: { filter: eq("name", name) },
    schema: policySchema,
  });
  const found = page.items.find((p) => p.name === name);
  if (found) return found;
  throw await notFoundError(
    ctx,
    "/policies",
    name,
    `There is no snapshot policy named "${name}" on ${ctx.arrayName}. List them with /array policy list --array ${ctx.arrayName}.`,
  );
}

/** Every (policy, file system) pair, or only one policy's. */
export async function fileSystemMembers(ctx: CommandContext, policy?: string): Promise<[string, string][]> {
  const query = policy === undefined ? {} : { policy_names: [policy] };
  const out: [string, string][] = [];
  for await (const m of ctx.array.iterate("/policies/file-systems", { query, schema: memberSchema })) {
    if (m.policy?.name && m.member?.name) out.push([m.policy.name, m.member.name]);
  }
  return out;
}

/** Every (policy, replica link) pair (1.9+), or only one policy's. */
export async function linkMembers(ctx: CommandContext, policy?: string): Promise<[string, LinkMember][]> {
  if (!(await ctx.array.supports("1.9"))) return [];
  const query = policy === undefined ? {} : { policy_names: [policy] };
  const out: [string, LinkMember][] = [];
  for await (const m of ctx.array.iterate("/policies/file-system-replica-links", {
    query,
    schema: memberSchema,
  })) {
    const fs = m.link?.local_file_system?.name ?? m.member?.name;
    if (m.policy?.name && fs) out.push([m.policy.name, { fs, remote: m.link?.remote?.name ?? "?" }]);
  }
  return out;
}

/** Live snapshots made by the policy: counted and their creation times, per file system. */
export async function policySnapshots(
  ctx: CommandContext,
  policy: string,
): Promise<{ counts: Map<string, number>; created: Map<string, number[]> }> {
  const counts = new Map<string, number>();
  const created = new Map<string, number[]>();
  const query = { filter: and(eq("policy.name", policy), eq("destroyed", false)) };
  for await (const s of ctx.array.iterate("/file-system-snapshots", { query, schema: snapshotSchema })) {
    const fs = s.source ?? s.owner?.name ?? "?";
    counts.set(fs, (counts.get(fs) ?? 0) + 1);
    if (s.created !== undefined) created.set(fs, [...(created.get(fs) ?? []), s.created]);
  }
  return { counts, created };
}

export async function policyFacts(ctx: CommandContext, name: string): Promise<PolicyFacts> {
  const policy = await requirePolicy(ctx, name);
  const [fsPairs, linkPairs, snaps] = await Promise.all([
    fileSystemMembers(ctx, name),
    linkMembers(ctx, name),
    policySnapshots(ctx, name),
  ]);
  return {
    policy,
    fileSystems: fsPairs.map(([, fs]) => fs).sort(),
    links: linkPairs.map(([, l]) => l),
    snapshots: snaps.counts,
    created: snaps.created,
  };
}

export function total(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}

/** "home 10, projects 10" */
export function perFileSystem(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([fs, n]) => `${fs} ${n}`)
    .join(", ");
}

/** Local file systems with a replica link (1.9+); a link protects the data whatever its policies. */
export async function replicatedFileSystems(ctx: CommandContext): Promise<string[]> {
  if (!(await ctx.array.supports("1.9"))) return [];
  const out: string[] = [];
  const schema = z.looseObject({ local_file_system: ref.optional() });
  for await (const l of ctx.array.iterate("/file-system-replica-links", { schema })) {
    if (l.local_file_system?.name) out.push(l.local_file_system.name);
  }
  return out;
}

/** Of `names`, the file systems that only `policy` protects: no other policy, no replica link. */
export async function onlyProtectedBy(
  ctx: CommandContext,
  names: readonly string[],
  policy: string,
): Promise<string[]> {
  const [fsPairs, links] = await Promise.all([fileSystemMembers(ctx), replicatedFileSystems(ctx)]);
  const covered = new Set<string>(links);
  for (const [p, fs] of fsPairs) if (p !== policy) covered.add(fs);
  return names.filter((n) => !covered.has(n));
}

/** The snapshot policies on one file system; undefined before REST 1.5. */
export async function fileSystemPolicies(ctx: CommandContext, fs: string): Promise<string[] | undefined> {
  if (!(await ctx.array.supports("1.5"))) return undefined;
  const out: string[] = [];
  const query = { member_names: [fs] };
  for await (const m of ctx.array.iterate("/policies/file-systems", { query, schema: memberSchema })) {
    if (m.policy?.name && m.member?.name === fs) out.push(m.policy.name);
  }
  return out;
}
