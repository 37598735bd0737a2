/** A minimal SimRequest for listing tests, built with the real query parser. */
import { parseQuery } from "../../../src/simulator/query/index.js";
import { SimHttpError, type SimRequest } from "../../../src/simulator/types.js";

export function request(search: string, path = "/file-systems", version = "1.12"): SimRequest {
  return { method: "GET", path, version, query: parseQuery(search), body: undefined, user: "pureuser" };
}

/** Builds a query string the way purity_fb does (urlencode with quote_plus). */
export function qs(params: Record<string, string | number | boolean>): string {
  return new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
}

/** Runs `fn` and returns the SimHttpError it throws; fails the test when it throws nothing or something else. */
export function httpError(fn: () => unknown): SimHttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SimHttpError) return err;
    throw new Error(`expected a SimHttpError, got ${String(err)}`);
  }
  throw new Error("expected a SimHttpError, but nothing was thrown");
}
