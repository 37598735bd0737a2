/**
 * How the App Home orders and counts a large fleet: worst arrays first (not read, then needing attention, then
 * with warnings, then fine; fuller first within each), so the arrays shown within a view's 100 blocks are the
 * ones someone should look at, and the rest are counted by how they stand.
 */
import type { FleetArray } from "../core/requests/fleet.js";

export type Standing = "not read" | "needs attention" | "warnings" | "fine";
const ORDER: readonly Standing[] = ["not read", "needs attention", "warnings", "fine"];

const DAY_LIMIT = 30;

function fullness(f: FleetArray): number {
  const c = f.capacity;
  return c && c.total > 0 ? c.used / c.total : 0;
}

/** Where one array stands, from what the glance read of it. */
export function standing(f: FleetArray): Standing {
  if (f.error !== undefined) return "not read";
  const full = fullness(f);
  const soon = (level: number) =>
    f.capacity?.daysTo.some((d) => d.level === level && d.days !== undefined && d.days <= DAY_LIMIT) ?? false;
  if (
    (f.alerts?.critical ?? 0) > 0 ||
    (f.links?.unhealthy ?? 0) > 0 ||
    (f.certificates ?? []).some((c) => c.daysLeft < 0) ||
    full >= 0.9 ||
    soon(1)
  )
    return "needs attention";
  if (
    (f.alerts?.warning ?? 0) > 0 ||
    (f.links?.paused ?? 0) > 0 ||
    (f.certificates?.length ?? 0) > 0 ||
    full >= 0.8 ||
    soon(0.9)
  )
    return "warnings";
  return "fine";
}

/** The fleet worst first; a stable sort, so arrays that stand alike keep their configured order. */
export function worstFirst(fleet: readonly FleetArray[]): FleetArray[] {
  const rank = new Map(fleet.map((f) => [f, ORDER.indexOf(standing(f))]));
  return [...fleet].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0) || fullness(b) - fullness(a));
}

/** "12 not read, 30 need attention, 958 fine": how many stand each way, worst first, zeros left out. */
export function standingCounts(fleet: readonly FleetArray[]): string {
  const counts = new Map<Standing, number>();
  for (const f of fleet) counts.set(standing(f), (counts.get(standing(f)) ?? 0) + 1);
  const words: Record<Standing, [string, string]> = {
    "not read": ["not read", "not read"],
    "needs attention": ["needs attention", "need attention"],
    warnings: ["with warnings", "with warnings"],
    fine: ["fine", "fine"],
  };
  return ORDER.filter((s) => (counts.get(s) ?? 0) > 0)
    .map((s) => {
      const n = counts.get(s) ?? 0;
      return `${n.toLocaleString("en-US")} ${n === 1 ? words[s][0] : words[s][1]}`;
    })
    .join(", ");
}
