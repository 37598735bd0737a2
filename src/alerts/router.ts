import type { AlertsConfig, RouteConfig } from "../config/alerts.js";
import { type Severity, severityRank } from "./types.js";

/** What routing looks at. Reachability cards route as critical alerts with no code and component "array". */
export interface RoutingFacts {
  array: string;
  tags: readonly string[];
  severity: Severity;
  code?: number;
  component?: string;
}

export interface RouteDecision {
  channels: string[];
  /** Names of the routes that matched; ["default"] when none did. */
  routes: string[];
}

export interface Router {
  route(f: RoutingFacts): RouteDecision;
  /** The routes that can send anything to `channel` (for `alert routes`). */
  routesFor(channel: string): { name: string; summary: string }[];
}

/** Matches "fb1", "tag:prod" or "all" against an array. */
export function selectorMatches(sel: string, array: string, tags: readonly string[]): boolean {
  if (sel === "all") return true;
  if (sel.startsWith("tag:")) return tags.includes(sel.slice(4));
  return sel === array;
}

/** `*` matches any characters; everything else literally, case-sensitively. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}

interface CompiledRoute {
  cfg: RouteConfig;
  components?: RegExp[];
}

function matches(r: CompiledRoute, f: RoutingFacts): boolean {
  const c = r.cfg;
  if (c.arrays && !c.arrays.some((s) => selectorMatches(s, f.array, f.tags))) return false;
  if (c.severity && !c.severity.includes(f.severity)) return false;
  if (c.min_severity && severityRank(f.severity) < severityRank(c.min_severity)) return false;
  if (c.codes && (f.code === undefined || !c.codes.includes(f.code))) return false;
  if (r.components && (f.component === undefined || !r.components.some((re) => re.test(f.component ?? "")))) {
    return false;
  }
  return true;
}

function describeRoute(c: RouteConfig): string {
  const parts: string[] = [];
  parts.push(c.arrays ? `arrays ${c.arrays.join(", ")}` : "any array");
  if (c.severity) parts.push(`severity ${c.severity.join(" or ")}`);
  if (c.min_severity) parts.push(`severity ${c.min_severity} or higher`);
  if (c.codes) parts.push(`codes ${c.codes.join(", ")}`);
  if (c.components) parts.push(`components ${c.components.join(", ")}`);
  return parts.join("; ");
}

/**
 * Every matching route contributes its channels (an alert can go to #storage-oncall and #storage-all at
 * once); the default channels take what no route matched.
 */
export function createRouter(cfg: Pick<AlertsConfig, "routes" | "default_channels">): Router {
  const routes: CompiledRoute[] = cfg.routes.map((r) => {
    const c: CompiledRoute = { cfg: r };
    if (r.components) c.components = r.components.map(globToRegExp);
    return c;
  });
  return {
    route(f) {
      const channels = new Set<string>();
      const names: string[] = [];
      for (const r of routes) {
        if (!matches(r, f)) continue;
        names.push(r.cfg.name);
        for (const ch of r.cfg.channels) channels.add(ch);
      }
      if (names.length > 0) return { channels: [...channels], routes: names };
      return { channels: [...cfg.default_channels], routes: ["default"] };
    },
    routesFor(channel) {
      const out = routes
        .filter((r) => r.cfg.channels.includes(channel))
        .map((r) => ({ name: r.cfg.name, summary: describeRoute(r.cfg) }));
      if (cfg.default_channels.includes(channel)) {
        out.push({ name: "default", summary: "alerts no route matches" });
      }
      return out;
    },
  };
}
