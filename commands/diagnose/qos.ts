/**
 * QoS limits that hold a workload back (REST 2.17+): each QoS policy's members set against their own
 * performance now. A member running at 95 % or more of its policy's bandwidth or operations limit is being
 * throttled by the array, which is a cause `diagnose` names ("file system scratch is held at its QoS limit"),
 * not a fault to chase elsewhere. 1.x arrays have no QoS policies and read nothing.
 */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { atLeast, generationOf } from "../../src/rest-spec/versions.js";
import type { Load } from "./collect.js";

/** At or above this share of a limit, the limit is what holds the workload. */
export const QOS_HELD = 0.95;

interface Policy {
  name?: string;
  enabled?: boolean;
  max_total_bytes_per_sec?: number;
  max_total_ops_per_sec?: number;
}
interface Member {
  policy?: { name?: string };
  member?: { name?: string; resource_type?: string };
}

export interface QosHold {
  kind: "file system" | "bucket";
  member: string;
  policy: string;
  /** The limit that binds, and what the member does against it now. */
  by: "bandwidth" | "operations";
  limit: number;
  now: number;
  /** now ÷ limit. */
  ratio: number;
}

/** The member's tightest limit against its load: the one it is nearest to (0 means no limit, as arrays say). */
export function holdOf(kind: QosHold["kind"], load: Load, policy: Policy): QosHold | undefined {
  const limits = [
    { by: "bandwidth" as const, limit: policy.max_total_bytes_per_sec ?? 0, now: load.bw },
    { by: "operations" as const, limit: policy.max_total_ops_per_sec ?? 0, now: load.ops },
  ].filter((l) => l.limit > 0);
  const nearest = limits.map((l) => ({ ...l, ratio: l.now / l.limit })).sort((a, b) => b.ratio - a.ratio)[0];
  return nearest ? { kind, member: load.name, policy: policy.name ?? "?", ...nearest } : undefined;
}

/** Every QoS-limited file system and bucket with a load now, nearest its limit first. */
export async function readQos(
  ctx: CommandContext,
  fileSystems: readonly Load[] = [],
  buckets: readonly Load[] = [],
): Promise<QosHold[]> {
  const version = await ctx.array.version();
  if (generationOf(version) !== 2 || !atLeast(version, "2.17")) return [];
  const policies = new Map<string, Policy>();
  for await (const p of ctx.array.iterate<Policy>("/qos-policies"))
    if (p.name && p.enabled !== false) policies.set(p.name, p);
  if (policies.size === 0) return [];
  const loads = {
    "file system": new Map(fileSystems.map((l) => [l.name, l])),
    bucket: new Map(buckets.map((l) => [l.name, l])),
  };
  const out: QosHold[] = [];
  for await (const m of ctx.array.iterate<Member>("/qos-policies/members")) {
    const policy = policies.get(m.policy?.name ?? "");
    const name = m.member?.name ?? "";
    const kind = m.member?.resource_type === "buckets" ? "bucket" : "file system";
    const load = loads[kind].get(name);
    const hold = policy && load ? holdOf(kind, load, policy) : undefined;
    if (hold) out.push(hold);
  }
  return out.sort((a, b) => b.ratio - a.ratio);
}
