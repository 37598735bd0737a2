/**
 * App Home shows the array's own maintenance windows in force (REST 2.16+) beside its other facts, read from a
 * real simulator through the viewer's role; a window not yet in force (the demo's fw-upgrade, two days ahead) and
 * an array that speaks 1.x show none. The window is created through the simulator's 2.x wire (test/helpers/seed-2x.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { homeMessage } from "../../src/slack/home.js";
import { createHomePort } from "../../src/slack/home-data.js";
import { DEMO_ACCESS, type Harness, startHarness } from "../core/harness.js";
import { maintenanceWindow } from "../helpers/seed-2x.js";

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

describe("App Home: maintenance windows in force", () => {
  it("names the window in force and when it ends, on the 2.x array only", async () => {
    h = await startHarness({
      arrays: [
        { name: "fb-one", versions: "1.0-1.12" },
        { name: "fb-two", versions: "2.0-2.28" },
      ],
      simulatorClock: true,
    });
    await maintenanceWindow(h, "fb-two", "fw-upgrade", 48 * HOUR, 4 * HOUR);
    expect(await home(h)).not.toContain("maintenance window");
    await maintenanceWindow(h, "fb-two", "disk-swap", -HOUR, 3 * HOUR);
    const shown = await home(h);
    expect(shown).toMatch(/\*fb-two\*: [^\n]*maintenance window disk-swap in force, ends in [23]h/);
    expect(shown).not.toContain("fw-upgrade");
    expect(shown).not.toMatch(/\*fb-one\*: [^\n]*maintenance window/);
  });
});
