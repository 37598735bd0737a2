/**
 * Every refusal for an array's REST version has one sentence shape, whatever path made it: a catalogue verb,
 * the raw API call, or a hand-written command ("<what> needs REST <n>, <array> runs <v>. Nothing was sent.").
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

const SHAPE = /^.+ needs REST \d+\.\d+, old-1 runs 1\.4\. Nothing was sent\./m;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "old-1", versions: "1.0-1.4" }] });
});
afterAll(async () => h.close());

describe("version refusals are worded one way", () => {
  test.each([
    "policy list",
    "fs-link list",
    "bucket perf",
    "lifecycle-rule list",
    "quota list user --fs home",
    "api GET /file-system-replica-links",
    "certificate group list",
  ])("%s on a REST 1.4 array", async (line) => {
    const text = textOf(await h.run("alice", line));
    expect(text).toMatch(SHAPE);
    expect(text).not.toMatch(/or newer; .* speaks/);
  });
});
