/**
 * Every changing catalogue verb, from the catalogue's data: refused below its minimum role, `--dry-run` sends
 * nothing, and its destructive class gates it as configured (confirm, approval, or none) with nothing sent
 * before the click. Verbs run in the order their examples build on each other (create before delete).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CATALOGUE_VERBS } from "../../commands/catalogue/index.js";
import { destructiveSchema } from "../../src/config/schema.js";
import type { Role } from "../../src/core/access/roles.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";
import { SECRET_VALUES } from "./demo-examples.js";

const ORDER = ["create", "add", "update", "set", "action", "remove", "delete"];
const changing = CATALOGUE_VERBS.filter((p) => p.method !== "GET").sort(
  (a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind),
);
const BELOW: Record<Role, string | undefined> = { viewer: undefined, operator: "carol", admin: "bob" };
const POLICIES = destructiveSchema.parse({});

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** Changing requests the simulator received since the last reset. */
function changes(): string[] {
  const stats = h.sims.get("lab-1")?.control.stats().requests ?? {};
  return Object.keys(stats).filter((k) => /^(POST|PATCH|DELETE) \/api\/\d/.test(k));
}
const buttons = (effects: readonly Effect[]) =>
  messagesOf(effects).flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === "actions" ? b.buttons.map((x) => x.label) : [])),
  );

const rows = changing.map((p) => [`${p.spec.noun} ${p.verb}`, p] as const);

describe("every changing catalogue verb", () => {
  test.each(rows)("%s", async (_name, p) => {
    // One array here: an example shown on another demo array (`--array fb-dr-01`) runs on this one.
    const example = p.example?.replace(/\s--array \S+/, "");
    const line = `${p.spec.noun} ${p.verb}${example ? ` ${example}` : ""}`;
    const below = BELOW[p.role];
    h.sims.get("lab-1")?.control.resetStats();
    if (below) {
      const refused = textOf(await h.run(below, line));
      expect(refused).toContain(`needs the ${p.role} role`);
      expect(changes()).toEqual([]);
    }
    const dry = textOf(await h.run("alice", `${line} --dry-run`));
    expect(changes()).toEqual([]);
    // The example names what the demo array has (or what an earlier verb's example made), so its impact is
    // found and the dry run shows; an example naming a missing object fails here.
    expect(dry).toContain("Dry run");
    expect(dry).toContain(onWire(`${p.method} /api/1.12${p.path}`));
    const asked = await h.run("alice", line);
    const policy = p.cls ? POLICIES[p.cls] : undefined;
    const shown = buttons(asked);
    if (shown.includes("Enter secret…")) {
      // A verb whose example takes a secret (ad create: the join password) waits for it, typed privately.
      expect(changes()).toEqual([]);
      const prompt = (await h.click("alice", asked, "Enter secret…")).find((e) => e.kind === "secret");
      if (prompt?.kind !== "secret") throw new Error(`${line}: no secret prompt`);
      expect(changes()).toEqual([]);
      await h.pipeline.handleClick({
        actionId: prompt.actionId,
        value: prompt.pendingId,
        actor: { kind: "console" as const, userId: "alice", channelId: "C1" },
        secrets: Object.fromEntries(
          prompt.fields.map((f) => [f.key, SECRET_VALUES[f.key] ?? "s3cret-value"]),
        ),
      });
      expect(changes().length).toBeGreaterThan(0);
      return;
    }
    if (!policy) {
      // No class: it runs straight away, with no button to click.
      expect(shown).toEqual([]);
      expect(changes().length).toBeGreaterThan(0);
      return;
    }
    expect(changes()).toEqual([]);
    if (policy.policy === "confirm") {
      expect(shown).toContain("Confirm");
      await h.click("alice", asked, "Confirm");
    } else if (policy.policy === "approve") {
      expect(textOf(asked)).toContain("Approval requested");
      await h.click("dave", asked, "Approve");
    }
    expect(changes().length).toBeGreaterThan(0);
  });
});
