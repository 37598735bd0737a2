/** Numbers and times that read well: no raw epoch milliseconds, relative times a reader can use, one-word titles. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe("times", () => {
  test("support show gives its Created as a date, not epoch milliseconds", async () => {
    const text = textOf(await h.run("carol", "support show"));
    expect(text).toMatch(/Created:\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(text).not.toMatch(/\b1\d{12}\b/);
  });

  test("a file system created long ago reads in months or years, not 900d 37s", async () => {
    const text = textOf(await h.run("carol", "fs show home"));
    expect(text).toMatch(/Created:.*\((\d+ months|\d+ years) ago\)/);
    expect(text).not.toMatch(/\d{3}d \d+[hms] ago/);
  });
});

describe("the raw API's card", () => {
  test("is titled PATCH /arrays, not patch PATCH /arrays", async () => {
    const text = textOf(await h.run("alice", `api PATCH /arrays '{"banner":"x"}'`));
    expect(text).toContain("Approval needed: PATCH /arrays on lab-1");
    expect(text).not.toMatch(/patch PATCH/i);
  });
});
