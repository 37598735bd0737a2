/** The error taxonomy: one list of codes, and refusals by role or policy flagged `denied` by their code. */
import { expect, test } from "vitest";
import { ERROR_CODES, errorCode, InternalError, UserFacingError } from "../src/errors.js";

test("the codes are one sorted list without repeats", () => {
  expect([...ERROR_CODES]).toEqual([...new Set(ERROR_CODES)].sort());
});

test("refusals by role, channel or policy are denied; failures are not", () => {
  for (const code of [
    "FORBIDDEN",
    "CHANNEL_FORBIDDEN",
    "CHANNEL_PUBLIC_FORBIDDEN",
    "ACTION_DENIED_BY_POLICY",
  ] as const)
    expect(new UserFacingError(code, "no").denied, code).toBe(true);
  for (const code of ["ARRAY_DEADLINE", "NOT_FOUND", "PLAN_CHANGED"] as const)
    expect(new UserFacingError(code, "x").denied, code).toBe(false);
  expect(errorCode(new InternalError("PENDING_EXISTS", "x"))).toBe("PENDING_EXISTS");
  expect(errorCode(new Error("plain"))).toBe("INTERNAL");
});
