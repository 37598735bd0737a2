/**
 * What keeps a file system's data on a REST 2.x array whatever the bot asks: a WORM data policy (2.15) and legal
 * holds on its paths (2.17). Read before a destroy or an eradication (and a snapshot's), so the card refuses in
 * one plain sentence rather than sending a change the array refuses; 1.x arrays have neither, and read nothing.
 */
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { UserFacingError } from "../../src/errors.js";
import { atLeast, generationOf } from "../../src/rest-spec/versions.js";

interface Ref {
  name?: string;
}
interface WormPolicy {
  name?: string;
  enabled?: boolean;
  retention_lock?: string;
  min_retention?: number;
  default_retention?: number;
}
interface PolicyMember {
  policy?: Ref;
  member?: Ref;
}
interface HeldEntity {
  legal_hold?: Ref;
  file_system?: Ref;
  path?: string;
  status?: string;
}

export interface WormRetention {
  policy: string;
  /** When data written now is released (ms since the epoch): now + the policy's default (else minimum) retention. */
  until?: number;
}
export interface Hold {
  hold: string;
  path: string;
}
export interface Retention {
  worm: WormRetention[];
  holds: Hold[];
}

const NONE: Retention = { worm: [], holds: [] };

/** The WORM policies and legal holds on file system `fs`; nothing on 1.x or before the families existed. */
export async function retentionOf(ctx: CommandContext, fs: string): Promise<Retention> {
  const version = await ctx.array.version();
  if (generationOf(version) !== 2 || !atLeast(version, "2.15")) return NONE;
  const [worm, holds] = await Promise.all([
    wormOf(ctx, fs),
    atLeast(version, "2.17") ? holdsOf(ctx, fs) : Promise.resolve([]),
  ]);
  return { worm, holds };
}

async function wormOf(ctx: CommandContext, fs: string): Promise<WormRetention[]> {
  const members = await ctx.array.get<PolicyMember>("/worm-data-policies/members", {
    query: { member_names: fs },
  });
  // Filtered again here: the parameter narrows the answer on real arrays, the match is what counts.
  const names = [
    ...new Set(members.items.filter((m) => m.member?.name === fs).map((m) => m.policy?.name ?? "")),
  ].filter(Boolean);
  if (names.length === 0) return [];
  const policies = await ctx.array.get<WormPolicy>("/worm-data-policies", {
    query: { names: names.join(",") },
  });
  const now = ctx.now();
  return policies.items
    .filter((p) => p.name && names.includes(p.name) && p.enabled !== false)
    .map((p) => {
      const keep = p.default_retention || p.min_retention;
      return { policy: p.name ?? "?", ...(keep ? { until: now + keep } : {}) };
    });
}

async function holdsOf(ctx: CommandContext, fs: string): Promise<Hold[]> {
  const held = await ctx.array.get<HeldEntity>("/legal-holds/held-entities", {
    query: { file_system_names: fs },
  });
  return held.items
    .filter((h) => h.file_system?.name === fs && h.status !== "released")
    .map((h) => ({ hold: h.legal_hold?.name ?? "?", path: h.path ?? "/" }));
}

/** "2033-11-28" in the configured time zone. */
function day(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(ms);
}

/** Whether `path` is `under` or inside it ("/" holds everything). */
function within(path: string, under: string): boolean {
  const u = under.replace(/\/+$/, "");
  return u === "" || path === u || path.startsWith(`${u}/`);
}

/**
 * The sentence the card says when the array will refuse deleting `what` of file system `fs` (the whole file
 * system when `path` is absent, else what lies at `path`), or undefined when nothing keeps it.
 */
export function retentionRefusal(
  fs: string,
  r: Retention,
  timeZone: string,
  path?: string,
): string | undefined {
  const reasons: string[] = [];
  if (path === undefined)
    for (const w of r.worm)
      reasons.push(
        `file system ${fs} is under WORM policy ${w.policy}${w.until === undefined ? "" : `, retained until ${day(w.until, timeZone)}`}`,
      );
  const holds = r.holds.filter((h) => path === undefined || within(h.path, path) || within(path, h.path));
  for (const h of holds) reasons.push(`held by legal hold ${h.hold} (path ${h.path})`);
  return reasons.length ? `The array will refuse this: ${reasons.join("; ")}.` : undefined;
}

/** Throws RETAINED with the refusal sentence when the array would refuse deleting it; nothing was sent. */
export async function refuseRetained(
  ctx: CommandContext,
  fs: string,
  path?: string,
  /** The retention, when the caller asked for it already (beside another read, to save a round trip). */
  read: Promise<Retention> = retentionOf(ctx, fs),
): Promise<void> {
  const sentence = retentionRefusal(fs, await read, ctx.timeZone, path);
  if (sentence) throw new UserFacingError("RETAINED", `${sentence} Nothing was sent.`);
}
