/**
 * App Home's fleet at a glance, read from real simulators through the viewer's role: capacity and the forecast,
 * open alerts by severity, replication, certificates; an array that does not answer is one line saying so and
 * the others still show; an array the viewer has no role on is not read at all; the view stays within Block Kit.
 */
import { afterEach, describe, expect, it } from "vitest";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { homeMessage, homeView } from "../../src/slack/home.js";
import { createHomePort } from "../../src/slack/home-data.js";
import { DEMO_ACCESS, type Harness, startHarness } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const text = (m: ReturnType<typeof homeMessage>) =>
  m.blocks.map((b) => ("text" in b ? (typeof b.text === "string" ? b.text : b.text.markup) : "")).join("\n");

async function homeFor(harness: Harness, user: string, access: unknown = DEMO_ACCESS) {
  const port = createHomePort({
    access: createAccessResolver(accessSchema.parse(access), {
      groupsOf: async () => [],
      isRestricted: async () => false,
    }),
    arrays: () => harness.pool.health(),
    fleet: {
      clientFor: (name): ArrayClient => harness.pool.get(name),
      options: { now: Date.now, deadlineMs: 3_000 },
    },
  });
  return port.load(user);
}

describe("App Home: the fleet at a glance", () => {
  it("shows each array's capacity, alerts and certificates; a down array is one line and the rest still show", async () => {
    h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }] });
    await h.sims.get("lab-2")?.control.down();
    const data = await homeFor(h, "carol");
    const lab1 = data.fleet?.find((f) => f.array === "lab-1");
    expect(lab1?.error).toBeUndefined();
    expect(lab1?.capacity?.total).toBeGreaterThan(0);
    expect(lab1?.alerts?.critical).toBeGreaterThan(0);
    expect(lab1?.links?.total).toBeGreaterThan(0);
    const lab2 = data.fleet?.find((f) => f.array === "lab-2");
    expect(lab2?.error).toBeDefined();
    const shown = text(homeMessage(data));
    expect(shown).toMatch(/\*lab-1\*: \d+ % used of [\d.]+ TiB \(80 % in \d+ days/);
    expect(shown).toMatch(/alerts: \d+ critical/);
    expect(shown).toMatch(/\d+ replica links/);
    expect(shown).toContain("*lab-2*: not read (");
    expect(blockKitViolations(homeView(data).blocks, "view")).toEqual([]);
  });

  it("reads nothing from an array the viewer has no role on", async () => {
    h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }] });
    const onlyLab1 = {
      ...DEMO_ACCESS,
      overrides: [{ arrays: ["lab-1"], viewer: { users: ["erin"], groups: [] } }],
    };
    for (const sim of h.sims.values()) sim.control.resetStats();
    const data = await homeFor(h, "erin", onlyLab1);
    expect(data.fleet?.map((f) => f.array)).toEqual(["lab-1"]);
    expect(
      h.sims
        .get("lab-2")
        ?.control.stats()
        .recent.filter((r) => r.path.includes("/api/1")),
    ).toEqual([]);
  });
});
