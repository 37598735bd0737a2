/**
 * Snapshot policy rules as people read and type them: "every 1h, keep 1d" and "every 1d at 02:00, keep 7d",
 * several separated by ";". The same text is shown and accepted, so a rule can be copied from `policy show`
 * into `--remove-rule`.
 */
import { z } from "zod";
import { type ArgWire, wired } from "../../src/core/words/arg-wire.js";

export interface Rule {
  every: number;
  keep_for: number;
  /** Milliseconds after midnight; only with a whole number of days in `every`. */
  at?: number | null | undefined;
  time_zone?: string | null | undefined;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS: [string, number][] = [
  ["d", DAY],
  ["h", HOUR],
  ["m", MINUTE],
];

/** 90 minutes → "1h30m", 7 days → "7d". */
export function ruleDuration(ms: number): string {
  let rest = ms;
  let out = "";
  for (const [label, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${label}`;
    rest -= n * size;
  }
  if (rest > 0) out += `${Math.round(rest / 1000)}s`;
  return out || "0m";
}

function clock(ms: number): string {
  const h = Math.floor(ms / HOUR);
  const m = Math.floor((ms % HOUR) / MINUTE);
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

export function ruleText(r: Rule): string {
  const at =
    r.at === null || r.at === undefined ? "" : ` at ${clock(r.at)}${r.time_zone ? ` ${r.time_zone}` : ""}`;
  return `every ${ruleDuration(r.every)}${at}, keep ${ruleDuration(r.keep_for)}`;
}

export function rulesText(rules: readonly Rule[]): string {
  return rules.length ? rules.map(ruleText).join("; ") : "no rules";
}

/** Two rules are the same when schedule and retention match; the time zone only where both name one. */
export function sameRule(a: Rule, b: Rule): boolean {
  return (
    a.every === b.every &&
    a.keep_for === b.keep_for &&
    (a.at ?? null) === (b.at ?? null) &&
    (!a.time_zone || !b.time_zone || a.time_zone === b.time_zone)
  );
}

const DURATION = /^(\d+[wdhm])+$/i;
function parseDur(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const m of text.toLowerCase().matchAll(/(\d+)([wdhm])/g)) {
    const n = Number(m[1]);
    ms += n * ({ w: 7 * DAY, d: DAY, h: HOUR, m: MINUTE }[m[2] as "w" | "d" | "h" | "m"] ?? 0);
  }
  return ms;
}

const RULE_RE =
  /^every\s+(\S+?)(?:\s+at\s+(\d{1,2}):(\d{2})(?:\s+([A-Za-z][A-Za-z0-9_/+-]*))?)?\s*,?\s+keep(?:\s+for)?\s+(\S+)$/i;

/** One rule from its text, or a reason it is not one. */
export function parseRule(text: string): Rule | string {
  const t = text.trim().replace(/\s+/g, " ");
  const m = RULE_RE.exec(t);
  if (!m) return `\`${t}\` is not a rule; write it like "every 1h, keep 1d" or "every 1d at 02:00, keep 7d"`;
  const [, everyText = "", hh, mm, tz, keepText = ""] = m;
  const every = parseDur(everyText);
  const keep = parseDur(keepText);
  if (every === undefined || every < 5 * MINUTE)
    return `\`${everyText}\` in "${t}" is not an interval of at least 5m (e.g. 30m, 1h, 1d)`;
  if (keep === undefined) return `\`${keepText}\` in "${t}" is not a duration (e.g. 1d, 7d, 4w)`;
  if (keep < every) return `"${t}" keeps snapshots for less than the interval between them`;
  const rule: Rule = { every, keep_for: keep };
  if (hh !== undefined) {
    const at = Number(hh) * HOUR + Number(mm) * MINUTE;
    if (Number(hh) > 23 || Number(mm) > 59) return `${hh}:${mm} in "${t}" is not a time of day`;
    if (every % DAY !== 0) return `"${t}": "at" needs an interval of whole days (every 1d, every 7d)`;
    rule.at = at;
    if (tz !== undefined) rule.time_zone = tz;
  }
  return rule;
}

/**
 * Rules as a JSON face offers them: hourly or daily, kept for whole days, always longer than the interval (a
 * subset of what parseRule takes). Several as an array of distinct rules: a rule given twice is refused.
 */
const RULE =
  "every ([1-9]|1[0-2])h, keep [1-9][0-9]?d|every [1-9]d( at ([01][0-9]|2[0-3]):[0-5][0-9])?, keep [1-9][0-9]d";
const RULES_WIRE: ArgWire = {
  json: {
    anyOf: [
      { type: "string", pattern: `^(${RULE})$` },
      {
        type: "array",
        items: { type: "string", pattern: `^(${RULE})$` },
        minItems: 1,
        maxItems: 8,
        uniqueItems: true,
      },
    ],
    examples: ["every 1h, keep 1d", ["every 1h, keep 1d", "every 1d at 02:00, keep 30d"]],
  },
  word: (v) => (Array.isArray(v) ? v.map(String).join("; ") : undefined),
};

/** `--rules "every 1h, keep 1d; every 1d at 02:00, keep 7d"`. */
export function ruleList() {
  return wired(
    z.string().transform((v, ctx): Rule[] => {
      const parts = v
        .split(";")
        .map((p) => p.trim())
        .filter((p) => p !== "");
      const rules: Rule[] = [];
      for (const p of parts) {
        const r = parseRule(p);
        if (typeof r === "string") {
          ctx.addIssue({ code: "custom", message: r });
          return z.NEVER;
        }
        if (rules.some((x) => sameRule(x, r))) {
          ctx.addIssue({ code: "custom", message: `"${p}" is given twice` });
          return z.NEVER;
        }
        rules.push(r);
      }
      if (rules.length === 0) {
        ctx.addIssue({ code: "custom", message: 'give at least one rule, e.g. "every 1h, keep 1d"' });
        return z.NEVER;
      }
      return rules;
    }),
    RULES_WIRE,
  );
}

/** A rule as the array takes it in a body. */
export function wireRule(r: Rule): Record<string, number | string | null> {
  return {
    every: r.every,
    keep_for: r.keep_for,
    ...(r.at === undefined || r.at === null ? {} : { at: r.at }),
    ...(r.time_zone ? { time_zone: r.time_zone } : {}),
  };
}
