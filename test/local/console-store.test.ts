/**
 * The console honours the configuration's `store:`: an approval requested before a restart is shown again
 * after it, with its buttons, and can be given then.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ConsoleWorld, startConsoleWorld } from "./console-world.js";

let world: ConsoleWorld;
beforeAll(async () => {
  world = await startConsoleWorld("fc-console-store-");
});
afterAll(async () => world.close());
const runConsole = (lines: string[]) => world.run(lines);

describe("console with a durable store", () => {
  test("a pending approval survives a restart and is approved after it", async () => {
    const first = await runConsole(["/as bob", "/array fs resize scratch 4T"]);
    expect(first.out).toContain("Approval needed: resize file system scratch on lab-1");
    // Piped input that leaves a change waiting did nothing yet: the exit code says so (the request still waits).
    expect(first.out).toContain(
      "Nothing was done for this change, which waits for a confirmation or approval",
    );
    expect(first.code).toBe(1);

    const second = await runConsole(["/as alice", "1"]);
    expect(second.out).toContain("1 request(s) made before the restart still wait for an answer:");
    expect(second.out).toContain("[1] Approve   [2] Deny");
    expect(second.out).toContain("Resized scratch on lab-1: 5 TiB → 4 TiB.");
    expect(world.sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);

    const third = await runConsole(["/as alice"]);
    expect(third.out).not.toContain("still wait for an answer");
  });
});
