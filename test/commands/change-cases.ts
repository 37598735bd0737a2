/**
 * The three checks every changing operation gets in the per-operation 2.x tests: a viewer is refused and the array
 * keeps what it holds; a dry run shows the exact request and changes nothing; through its gate (Confirm, another
 * person's Approve, the private dialog) the array holds what the change says.
 */
import { expect, test } from "vitest";
import { type Harness, textOf } from "../core/harness.js";
import { runThroughGates } from "./demo-examples.js";

export interface ChangeCase {
  line: string;
  /** The request line the dry run shows. */
  request: string;
  /** What the array holds before and after the change. */
  before: () => unknown;
  after: unknown;
}

/** Registers the three checks of each case; `harness` is read when a test runs (a fresh one per test). */
export function testChanges(cases: readonly ChangeCase[], harness: () => Harness): void {
  test.each(cases)("$line: a viewer is refused and nothing changes", async (c) => {
    const was = JSON.stringify(c.before());
    const text = textOf(await harness().run("carol", c.line));
    expect(text).toMatch(/needs the (operator|admin) role on array fb-\w+; you are a viewer there/);
    expect(JSON.stringify(c.before())).toBe(was);
  });

  test.each(cases)("$line: a dry run shows the exact request and changes nothing", async (c) => {
    const was = JSON.stringify(c.before());
    const text = textOf(await harness().run("alice", `${c.line} --dry-run`));
    expect(text).toContain(c.request);
    expect(text).toContain("Nothing was changed (dry run).");
    expect(JSON.stringify(c.before())).toBe(was);
  });

  test.each(cases)("$line: through its gate it changes the array", async (c) => {
    expect(c.before()).not.toEqual(c.after);
    await runThroughGates(harness(), c.line);
    expect(c.before()).toEqual(c.after);
  });
}
