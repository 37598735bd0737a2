/**
 * Request-body validation at the simulator's boundary: zod schemas per model and version, and one place that
 * turns a zod issue into the 400 a client sees.
 */
import { z } from "zod";
import { badRequest, type SimRequest } from "../types.js";

export type Json = Record<string, unknown>;

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let cur = body;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function describeIssue(issue: z.core.$ZodIssue, body: unknown, model: string, version: string): string {
  const path = issue.path.map(String).join(".");
  const where = path === "" ? model : `'${path}'`;
  switch (issue.code) {
    case "unrecognized_keys": {
      const keys = issue.keys.map((k) => `'${path === "" ? k : `${path}.${k}`}'`).join(", ");
      return `${keys} ${issue.keys.length === 1 ? "is not a field" : "are not fields"} of ${model} in REST ${version}.`;
    }
    case "invalid_type":
      if (valueAt(body, issue.path) === undefined) return `${where} is required in ${model}.`;
      return `Invalid ${where} in ${model}: expected ${issue.expected}.`;
    case "too_small":
      return `Invalid ${where} in ${model}: must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}${issue.origin === "string" ? " characters" : ""}.`;
    case "too_big":
      return `Invalid ${where} in ${model}: must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}${issue.origin === "string" ? " characters" : ""}.`;
    case "invalid_value":
      return `Invalid ${where} in ${model}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`;
    default:
      return `Invalid ${where} in ${model}: ${issue.message}.`;
  }
}

/** Parses `body` with `schema`; a violation becomes a 400 naming the field and what it must be. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  model: string,
  version: string,
): z.output<S> {
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  const issue = res.error.issues[0];
  throw badRequest(issue ? describeIssue(issue, body, model, version) : `Invalid ${model}.`);
}

/** The request body as an object; `undefined` (no body) only where the endpoint allows it. */
export function bodyObject(req: SimRequest, model: string, optional = false): Json {
  const body = req.body;
  if (body === undefined || body === null) {
    if (optional) return {};
    throw badRequest(`A JSON ${model} body is required.`);
  }
  if (typeof body !== "object" || Array.isArray(body))
    throw badRequest(`The body must be a JSON ${model} object.`);
  return body as Json;
}

/** Fields a client may read but never write; naming them beats a generic "unknown field". */
export function rejectReadOnly(body: Json, fields: readonly string[], model: string): void {
  for (const f of fields) {
    if (f in body) throw badRequest(`'${f}' is read-only in ${model}; remove it from the body.`);
  }
}

export const nonNegativeInt = z.int().min(0);
export const referenceByName = z.looseObject({ name: z.string().min(1) });
