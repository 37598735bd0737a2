/**
 * Start-up checks of what commands declare they send (`endpoints`) against the access policy: every command
 * declares, each declared endpoint is in the interface table, a command's role is at least the policy's for each
 * endpoint it sends, and one changing METHOD + path (+ facet) has one owner unless one says it `replaces` the
 * other. GETs may be shared (a list and a show read the same path).
 */
import type { HttpMethod } from "../../rest-spec/endpoints.js";
import { endpointRule } from "../../rest-spec/policy.js";
import { roleAtLeast } from "../access/roles.js";
import { commandId } from "../words/command-path.js";
import type { CommandDefinition, ResourceDefinition } from "./define-command.js";

const DECLARED = /^(GET|POST|PATCH|DELETE|PUT) (\*|\/[^\s{]*)(?: (\{.+\}))?$/;

export interface DeclaredSend {
  method: HttpMethod;
  /** "*": any path, checked per request (the raw call). */
  path: string;
  facet?: string;
}

export function parseDeclared(text: string): DeclaredSend | undefined {
  const m = DECLARED.exec(text.trim());
  if (!m) return undefined;
  return { method: m[1] as HttpMethod, path: m[2] as string, ...(m[3] ? { facet: m[3] } : {}) };
}

function checkOne(id: string, c: CommandDefinition): string[] {
  if (c.endpoints === undefined)
    return [`${id}: declares no endpoints (list what it sends in its definition's endpoints, [] for none)`];
  const problems: string[] = [];
  for (const text of c.endpoints) {
    const d = parseDeclared(text);
    if (!d) {
      problems.push(`${id}: endpoint "${text}" is not "METHOD /path" or "METHOD /path {facet}"`);
      continue;
    }
    if (d.path === "*") continue;
    const rule = endpointRule(d.method, d.path);
    if (!rule) problems.push(`${id}: ${d.method} ${d.path} is not in the endpoint table`);
    else if (!roleAtLeast(c.role, rule.role))
      problems.push(
        `${id}: role ${c.role} is below the ${rule.role} the access policy needs for ${d.method} ${d.path}`,
      );
  }
  return problems;
}

/** Every problem with declared endpoints, as readable lines. */
export function checkEndpoints(resources: readonly ResourceDefinition[]): string[] {
  const problems: string[] = [];
  const owners = new Map<string, { id: string; replaces: readonly string[] }[]>();
  for (const r of resources) {
    for (const c of r.commands) {
      const id = commandId(r.name, c.verb);
      problems.push(...checkOne(id, c));
      for (const text of c.endpoints ?? []) {
        const d = parseDeclared(text);
        if (!d || d.method === "GET" || d.path === "*") continue;
        const key = `${d.method} ${d.path}${d.facet ? ` ${d.facet}` : ""}`;
        owners.set(key, [...(owners.get(key) ?? []), { id, replaces: c.replaces ?? [] }]);
      }
    }
  }
  for (const [key, list] of owners) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i];
        const b = list[j];
        if (!a || !b || a.id === b.id) continue;
        if (a.replaces.includes(b.id) || b.replaces.includes(a.id)) continue;
        problems.push(
          `${a.id} and ${b.id} both send ${key}: keep one verb per endpoint, or say which one replaces the other`,
        );
      }
    }
  }
  return problems;
}
