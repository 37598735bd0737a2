/**
 * App Home shows the array's own maintenance windows in force (REST 2.16+) beside its other facts, read from a
 * real simulator through the viewer's role; a window not yet in force (the demo's fw-upgrade, two days ahead) and
 * an array that speaks 1.x show none. The window is created through the simulator's 2.x wire; its created and
 * expires are filled as the array sets them from the timeout, which the generic collection does not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { collection } from "../../src/simulator/resources/generic.js";
import { homeMessage } from "../../src/slack/home.js";
import { createHomePort } from "../../src/slack/home-data.js";
import { DEMO_ACCESS, type Harness, startHarness } from "../core/harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const HOUR = 3_600_000;
const text = (m: ReturnType<typeof homeMessage>) =>
  m.blocks.map((b) => ("text" in b ? (typeof b.text === "string" ? b.text : b.text.markup) : "")).join("\n");

async function home(harness: Harness) {
  const port = createHomePort({
    access: createAccessResolver(accessSchema.parse(DEMO_ACCESS), {
      groupsOf: async () => [],
      isRestricted: async () => false,
    }),
    arrays: () => harness.pool.health(),
    fleet: {
      clientFor: (name): ArrayClient => harness.pool.get(name),
      options: { now: () => harness.clock.now, deadlineMs: 5_000 },
    },
  });
  return text(homeMessage(await port.load("carol")));
}

async function window(harness: Harness, name: string, startsIn: number, lasts: number): Promise<void> {
  const client = harness.pool.get("fb-two");
  await client.post("/maintenance-windows", { query: { names: name }, body: { timeout: lasts } });
  const sim = harness.sims.get("fb-two");
  const item = sim ? collection(sim.state, "/maintenance-windows").items.get(name) : undefined;
  if (!item) throw new Error("the window was created");
  Object.assign(item, {
    created: harness.clock.now + startsIn,
    expires: harness.clock.now + startsIn + lasts,
  });
}

describe("App Home: maintenance windows in force", () => {
  it("names the window in force and when it ends, on the 2.x array only", async () => {
    h = await startHarness({
      arrays: [
        { name: "fb-one", versions: "1.0-1.12" },
        { name: "fb-two", versions: "2.0-2.28" },
      ],
    });
    await window(h, "fw-upgrade", 48 * HOUR, 4 * HOUR);
    expect(await home(h)).not.toContain("maintenance window");
    await window(h, "disk-swap", -HOUR, 3 * HOUR);
    const shown = await home(h);
    expect(shown).toMatch(/\*fb-two\*: [^\n]*maintenance window disk-swap in force, ends in 2h/);
    expect(shown).not.toContain("fw-upgrade");
    expect(shown).not.toMatch(/\*fb-one\*: [^\n]*maintenance window/);
  });
});
