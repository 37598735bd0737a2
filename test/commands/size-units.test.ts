/**
 * Sizes as storage people type them: a unitless number is answered with the unit that keeps it near the current
 * size, a size too large for the bot says so (with the largest), and `10GB` is shown in bytes on the card and
 * explained in help (G = GiB = 2^30). Through the pipeline on a demo array (home is 20 TiB).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe("sizes", () => {
  test("`fs resize home 30` on a 20 TiB file system suggests 30T, not 30G, and sends nothing", async () => {
    const sim = h.sims.get("lab-1");
    if (!sim) throw new Error("no simulator");
    const m = requestMark(sim);
    const text = textOf(await h.run("bob", "fs resize home 30"));
    expect(text).toContain("`30` has no unit. home is 20 TiB now, so you probably mean 30T (30 TiB)");
    expect(text).toContain("`/array fs resize home 30T`");
    expect(text).not.toContain("30G");
    expect(writesSince(sim, m, "/file-systems")).toHaveLength(0);
  });

  test("a small number beside a small file system suggests G", async () => {
    const text = textOf(await h.run("bob", "fs resize home 20000"));
    expect(text).toContain("you probably mean 20000G");
  });

  test("99999999T is too large, with the largest size; not 'not a size'", async () => {
    const text = textOf(await h.run("bob", "fs resize home 99999999T"));
    expect(text).toContain("`99999999T` is too large: the largest size is 8191T");
    expect(text).not.toContain("is not a size");
  });

  test("10GB: the card shows the bytes and help says G means 2^30", async () => {
    const card = textOf(await h.run("bob", "fs resize home 30TB --dry-run"));
    expect(card).toContain("New size: 30 TiB (32,985,348,833,280 bytes)");
    expect(textOf(await h.run("carol", "help fs resize"))).toContain(
      "10GB is 10,737,418,240 bytes, not 10^10",
    );
  });
});
