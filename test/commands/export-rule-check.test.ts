/**
 * A change to an NFS export policy's rules shows, before sending, the clients it adds and drops (first matching
 * rule wins, as the array decides). The check is catalogue data: a generic noun over `/nfs-export-policies/rules`
 * names NFS_EXPORT_RULE_CHECKS as its `precheck`, and the generic change verbs call it with the command's
 * context and the object they read. Until the catalogue derives 2.x nouns, the test calls it as they do, with a
 * context over the real client, against a 2.x simulated array seeded with the demo's policies.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrecheckView } from "../../commands/catalogue/spec.js";
import { NFS_EXPORT_RULE_CHECKS } from "../../commands/fs/export-rule-check.js";
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { unescapeText } from "../../src/core/presentation/message.js";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "fb-two", versions: "2.0-2.28" }] });
});
afterAll(async () => h.close());

/** The context a generic change verb gives its precheck, over the real client of fb-two. */
function context(): CommandContext {
  return {
    array: h.pool.get("fb-two"),
    arrayName: "fb-two",
    timeZone: "UTC",
    now: () => h.clock.now,
  } as Partial<CommandContext> as CommandContext;
}

/** The rule of lab-clients for `client` as the generic read finds it (update, delete): the array's item. */
async function rule(client: string): Promise<Record<string, unknown>> {
  const page = await h.pool
    .get("fb-two")
    .get<Record<string, unknown>>("/nfs-export-policies/rules", { query: { policy_names: "lab-clients" } });
  const item = page.items.find((r) => r["client"] === client);
  if (!item) throw new Error(`lab-clients has no rule for ${client}`);
  return item;
}

/** The view's facts and warnings as the card's text. */
function card(v: PrecheckView): string {
  return [
    ...(v.facts ?? []).map((f) => `${f.label}: ${unescapeText(f.value.markup)}`),
    ...(v.warnings ?? []).map((w) => unescapeText(w.markup)),
  ].join("\n");
}

const check = (verb: "create" | "update" | "delete") => {
  const c = NFS_EXPORT_RULE_CHECKS[verb];
  if (!c) throw new Error(`no ${verb} check`);
  return c;
};

describe("an export rule change shows the clients it adds and drops", () => {
  test("deleting the rule that lets 10.20.0.0/16 in drops it, before anything is sent", async () => {
    const item = await rule("10.20.0.0/16");
    const view = await check("delete")(context(), { name: String(item["name"]), args: {}, item });
    const text = card(view);
    expect(text).toMatch(/Clients dropped: +10\.20\.0\.0\/16 \(was rw, no-squash\)/);
    expect(text).toMatch(/Clients added: +none/);
    expect(text).toContain("lose access");
    // Nothing was sent: the array still has the rule.
    expect((await rule("10.20.0.0/16"))["name"]).toBe(item["name"]);
  });

  test("a new rule adds its clients; one placed first shadows the rules after it", async () => {
    const text = card(
      await check("create")(context(), {
        name: "lab-clients",
        args: { client: "10.30.0.0/16", permission: "ro" },
      }),
    );
    expect(text).toMatch(/Clients added: +10\.30\.0\.0\/16 \(ro, root-squash\)/);
    expect(text).toMatch(/Clients dropped: +none/);
    const first = card(
      await check("create")(context(), {
        name: "lab-clients",
        args: { client: "*", permission: "ro", index: 1 },
      }),
    );
    expect(first).toMatch(/Access changed: +10\.20\.0\.0\/16: rw, no-squash → ro, root-squash/);
  });

  test("an update that widens a rule says whose access changes", async () => {
    const item = await rule("*.build.example.com");
    const text = card(
      await check("update")(context(), { name: String(item["name"]), args: { permission: "rw" }, item }),
    );
    expect(text).toMatch(/Access changed: +\*\.build\.example\.com: ro, root-squash → rw, root-squash/);
    expect(text).toMatch(
      /Rules after: +10\.20\.0\.0\/16\(rw,no_root_squash\) \*\.build\.example\.com\(rw,root_squash\)/,
    );
  });
});
