/**
 * A change the array carried out is never answered "nothing was changed" (issue 44, found by the failover load):
 * when the state store cannot record the outcome right after the array call (a Redis failover, a full disk), the
 * answer says it was carried out and that its record is missing, and the record is left for recovery.
 */
import { afterEach, expect, test } from "vitest";
import { UserFacingError } from "../../src/errors.js";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test("the store failing after the array call: announced as done, with its record missing, never as not done", async () => {
  let failNext = true;
  h = await startHarness({
    pendingStore: (base) => ({
      ...base,
      async update(id, patch) {
        if (patch.status === "executed" && failNext) {
          failNext = false;
          throw new UserFacingError(
            "STORE_UNAVAILABLE",
            "Paused: the state store is unavailable. Nothing was changed.",
          );
        }
        return base.update(id, patch);
      },
    }),
  });
  const card = await h.run("bob", "fs resize scratch 4T");
  const done = textOf(await h.click("alice", card, "Approve"));
  expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);
  expect(done).toContain("Carried out on lab-1");
  expect(done).toContain("Do not run it again");
  expect(done).not.toContain("Nothing was changed");
  const [rec] = (await h.store.listOpen()).filter((r) => r.commandId === "fs.resize");
  expect(rec?.status).toBe("claimed");
});
