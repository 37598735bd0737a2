/**
 * What a generic list or show calls out below its table, so it is not lost in a long one (expiry, unhealthy
 * status), and how it counts its rows in words.
 */
import type { RenderContext } from "../../../src/core/catalogue/define-command.js";
import { type Block, rich } from "../../../src/core/presentation/message.js";
import { countOf } from "../../../src/core/words/units.js";
import type { VerbPlan } from "./derive.js";
import { EXPIRY_NOTICE_MS, EXPIRY_WARNING_MS, formatterOf, type Item, readerOf, valueAt } from "./values.js";

export function nameOf(p: VerbPlan, i: Item): string {
  return String(i["name"] ?? valueAt(i, p.spec.columns[0] ?? "name") ?? "?");
}

/** Lines calling out expiry and unhealthy status, so they are not lost in a long table. */
export function callouts(
  p: VerbPlan,
  items: readonly Item[],
  rctx: RenderContext,
  units: VerbPlan["spec"]["units"] = p.spec.units,
): Block[] {
  const out: Block[] = [];
  // Over several arrays the same name is on each (both demo arrays have a CH1.FB5): say whose it is.
  const named = (i: Item) =>
    rctx.arrays.length > 1 && i["_array"] ? `${nameOf(p, i)} on ${String(i["_array"])}` : nameOf(p, i);
  for (const [path, unit] of Object.entries(units ?? {})) {
    if (unit === "expiry") {
      const read = readerOf(path);
      const left = (i: Item) => {
        const v = Number(read(i));
        return Number.isFinite(v) && v > 0 ? v - rctx.now : undefined;
      };
      const soon = items.filter((i) => (left(i) ?? Number.POSITIVE_INFINITY) < EXPIRY_WARNING_MS);
      const later = items.filter((i) => {
        const l = left(i);
        return l !== undefined && l >= EXPIRY_WARNING_MS && l < EXPIRY_NOTICE_MS;
      });
      if (soon.length)
        out.push({
          type: "context",
          text: rich`⚠ ${countNoun(p, soon.length)} expired or expiring within 30 days: ${soon.map(named).join(", ")}`,
        });
      if (later.length)
        out.push({
          type: "context",
          text: rich`${countNoun(p, later.length)} expiring within 90 days: ${later.map(named).join(", ")}`,
        });
    }
    if (unit === "status") {
      const read = readerOf(path);
      const format = formatterOf(path, "status");
      const bad = items.filter((i) => {
        const v = read(i);
        return v !== undefined && v !== null && v !== "" && !format(v, rctx).startsWith("✓");
      });
      if (bad.length)
        out.push({
          type: "context",
          text: rich`✗ ${countOf(bad.length, "item")} not healthy: ${bad.map(named).join(", ")}`,
        });
    }
  }
  return out;
}

/**
 * "3 snmp managers", "1 policy", "2 policies". A relation's rows are memberships, not objects: "54 snapshot
 * policy memberships", never "54 snapshot policies" where the array has 3.
 */
export function countNoun(p: VerbPlan, n: number): string {
  const noun = p.spec.noun;
  if (p.spec.kind === "relation" && !/member(ship)?$/.test(noun))
    return `${n} ${noun} ${n === 1 ? "membership" : "memberships"}`;
  const plural =
    p.spec.plural ??
    (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /s$/.test(noun) ? noun : `${noun}s`);
  return `${n} ${n === 1 ? noun : plural}`;
}
