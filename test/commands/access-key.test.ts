import { describe, expect, test } from "vitest";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf, textOf } from "../core/harness.js";
import { requestMark, writesSince } from "./sim-requests.js";

const h = fileHarness();

const sim = () => h.sim();
const keysOf = (user: string) => [...sim().state.accessKeys.values()].filter((k) => k.user === user);

describe("access-key", () => {
  test("list shows ids, users and whether enabled, never secrets", async () => {
    const text = textOf(await h.run("carol", "access-key list"));
    expect(text).toContain("3 access keys on array lab-1");
    const reader = keysOf("analytics/reader")[0];
    expect(text).toContain(`analytics/reader | ${reader?.name} | no (disabled)`);
    for (const k of sim().state.accessKeys.values()) expect(text).not.toContain(k.secret);
  });

  test("create: a dry run sends nothing; the answer is private and marked secret", async () => {
    const m = requestMark(sim());
    const dry = textOf(await h.run("bob", "access-key create backup/veeam --dry-run"));
    expect(dry).toContain("POST");
    expect(dry).toContain('"user":{"name":"backup/veeam"}');
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);
    const effects = await h.run("bob", "access-key create backup/veeam");
    const [answer] = messagesOf(effects);
    const created = keysOf("backup/veeam").at(-1);
    expect(answer).toMatchObject({ visibility: "ephemeral", secret: true });
    expect(textOf(effects)).toContain(created?.secret ?? "missing");
    expect(effects.filter((e) => e.kind !== "reply")).toEqual([]);
  });

  test("a third key, or a user that does not exist, is refused before sending", async () => {
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", "access-key create backup/veeam"))).toContain(
      "backup/veeam already has 2 access keys",
    );
    expect(textOf(await h.run("bob", "access-key create backup/nobody"))).toContain(
      "There is no object store user backup/nobody on lab-1.",
    );
    expect(textOf(await h.run("bob", "access-key create veeam"))).toContain("<account>/<user>");
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);
  });

  test("rotate: a new key with its secret once, then Disable for the old one, which asks first", async () => {
    const [old] = keysOf("analytics/etl");
    expect(old?.enabled).toBe(true);
    const effects = await h.run("bob", "access-key rotate analytics/etl");
    const [answer] = messagesOf(effects);
    const fresh = keysOf("analytics/etl").find((k) => k.name !== old?.name);
    expect(answer).toMatchObject({ visibility: "ephemeral", secret: true });
    expect(textOf(effects)).toContain(fresh?.secret ?? "missing");
    // The old key still works until someone confirms its disable.
    expect(sim().state.accessKeys.get(old?.name ?? "")?.enabled).toBe(true);
    const asked = await h.click("bob", effects, `Disable ${old?.name}`);
    expect(textOf(asked)).toContain(`Confirm: disable access key ${old?.name}`);
    expect(sim().state.accessKeys.get(old?.name ?? "")?.enabled).toBe(true);
    await h.click("bob", asked, "Confirm");
    expect(sim().state.accessKeys.get(old?.name ?? "")?.enabled).toBe(false);
    expect(sim().state.accessKeys.get(fresh?.name ?? "")?.enabled).not.toBe(false);
    // Two keys is the most: the next rotation names the disabled one to delete first, and sends nothing.
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", "access-key rotate analytics/etl"))).toContain(
      `Delete the disabled one first: \`/array access-key delete ${old?.name}\``,
    );
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);
    await h.click("bob", await h.run("bob", `access-key delete ${old?.name}`), "Confirm");
  });

  test("disable asks for a confirmation (applications are cut off); enable runs at once; delete is gated", async () => {
    const key = keysOf("analytics/etl")[0]?.name ?? "";
    const asked = await h.run("bob", `access-key disable ${key}`);
    expect(textOf(asked)).toContain(`Confirm: disable access key ${key}`);
    expect(sim().state.accessKeys.get(key)?.enabled).not.toBe(false);
    expect(textOf(await h.click("bob", asked, "Confirm"))).toContain(`Disabled access key ${key}`);
    expect(sim().state.accessKeys.get(key)?.enabled).toBe(false);
    expect(textOf(await h.run("bob", `access-key disable ${key}`))).toContain("already disabled");
    await h.run("bob", `access-key enable ${key}`);
    expect(sim().state.accessKeys.get(key)?.enabled).toBe(true);
    const effects = await h.run("bob", `access-key delete ${key}`);
    expect(textOf(effects)).toContain("analytics/etl will have no access key left.");
    expect(sim().state.accessKeys.has(key)).toBe(true);
    await h.click("bob", effects, "Confirm");
    expect(sim().state.accessKeys.has(key)).toBe(false);
  });
});
