/**
 * Structured results carry the object (issue 46), read through the SDK's own client against the simulator's
 * objects: a `show` gives the object's fields as values (its name, sizes in bytes beside their text, times as ISO
 * 8601), a list its rows' raw values keyed by column beside the text, following the rows through --where and
 * --sort. Array text stays escaped for Slack markup and secrets stay withheld in the values too.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { RawValue } from "../../src/core/presentation/message.js";
import { type McpWorld, startMcpWorld, TOKENS } from "./helpers.js";

type Shown = { name: string; values: Record<string, RawValue>; display: Record<string, string> };
type Table = {
  columns: { key: string }[];
  rows: Record<string, string>[];
  values?: Record<string, RawValue>[];
};

let w: McpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("structured results", () => {
  test("fs_show: the file system's fields as values, sizes in bytes beside their text, times ISO 8601", async () => {
    w = await startMcpWorld();
    const fs = w.h.sims.get("lab-1")?.state.fileSystems.get("projects");
    if (!fs) throw new Error("the demo has no projects");
    const client = await w.connect(TOKENS.reader);
    const r = await client.callTool({ name: "fs_show", arguments: { name: "projects" } });
    expect(r.isError).toBeFalsy();
    const object = (r.structuredContent as { object: Shown }).object;
    expect(object.name).toBe("projects");
    expect(object.values.name).toBe("projects");
    expect(object.values.provisioned).toBe(fs.provisioned);
    expect(object.display.provisioned).toMatch(/^[\d.]+ [KMGTP]iB$/);
    expect(object.values.used).toBe(fs.space?.virtual);
    expect(object.values.hard_limit).toBe(fs.hard_limit_enabled ?? false);
    expect(object.values.created).toBe(new Date(fs.created as number).toISOString());
    expect(object.values.destroyed).toBe(false);
    // Every value is shown beside its text under the same key.
    for (const key of Object.keys(object.display)) expect(Object.hasOwn(object.values, key), key).toBe(true);
  });

  test("fs_list: rows keyed by column with raw values beside them, following --where and --sort", async () => {
    w = await startMcpWorld();
    const sims = w.h.sims.get("lab-1")?.state.fileSystems;
    const client = await w.connect(TOKENS.reader);
    const r = await client.callTool({ name: "fs_list", arguments: { where: "used% > 1", sort: "used-" } });
    expect(r.isError).toBeFalsy();
    const [table] = (r.structuredContent as { tables: Table[] }).tables;
    const values = table?.values ?? [];
    expect(values.length).toBe(table?.rows.length);
    expect(values.length).toBeGreaterThan(1);
    values.forEach((v, i) => {
      const fs = sims?.get(String(v.name));
      expect(table?.rows[i]?.name).toContain(String(v.name));
      expect(v.size).toBe(fs?.provisioned);
      expect(v.used).toBe(fs?.space?.virtual);
      expect(Number(v.pct)).toBeGreaterThan(0.01);
      if (v.created !== null) expect(v.created).toBe(new Date(fs?.created as number).toISOString());
    });
    const used = values.map((v) => Number(v.used));
    expect(used).toEqual([...used].sort((a, b) => b - a));
  });

  test("a catalogue show and list: values from the array's items, URL credentials withheld", async () => {
    w = await startMcpWorld();
    const support = w.h.sims.get("lab-1")?.state.generic.get("/support");
    for (const item of support?.items.values() ?? [])
      item.proxy = "http://svc:hunter2-secret@proxy.example.com:3128";
    const client = await w.connect(TOKENS.reader);
    const r = await client.callTool({ name: "support_show", arguments: {} });
    const object = (r.structuredContent as { object: Shown }).object;
    expect(String(object.values.proxy)).toContain("proxy.example.com");
    expect(JSON.stringify(r)).not.toContain("hunter2-secret");
    const subnets = await client.callTool({ name: "subnet_list", arguments: {} });
    const [table] = (subnets.structuredContent as { tables: Table[] }).tables;
    expect(table?.rows.length).toBeGreaterThan(0);
    expect(table?.values?.length).toBe(table?.rows.length);
    for (const v of table?.values ?? []) expect(typeof v.name).toBe("string");
  });

  test("hand-written shows and lists: alert_show's object, bucket_list's and snapshot_list's values, from the simulator's objects", async () => {
    w = await startMcpWorld();
    const state = w.h.sims.get("lab-1")?.state;
    const alert = [...(state?.alerts.values() ?? [])][0];
    if (!state || !alert) throw new Error("the demo has no alert");
    const client = await w.connect(TOKENS.reader);
    const shown = await client.callTool({ name: "alert_show", arguments: { index: alert.index } });
    const object = (shown.structuredContent as { object: Shown }).object;
    expect(object.values.index).toBe(alert.index);
    expect(object.values.code).toBe(alert.code);
    expect(object.values.created).toBe(new Date(alert.created).toISOString());
    expect(object.display.created).not.toBe(object.values.created);
    const buckets = await client.callTool({ name: "bucket_list", arguments: {} });
    const [bt] = (buckets.structuredContent as { tables: Table[] }).tables;
    expect(bt?.values?.length).toBe(bt?.rows.length);
    for (const v of bt?.values ?? []) {
      const b = state.buckets.get(String(v.name));
      expect(v.used).toBe(b?.space.virtual);
      expect(v.created).toBe(new Date(b?.created as number).toISOString());
    }
    const snaps = await client.callTool({ name: "snapshot_list", arguments: { limit: 5 } });
    const [st] = (snaps.structuredContent as { tables: Table[] }).tables;
    expect(st?.values?.length).toBeGreaterThan(0);
    for (const v of st?.values ?? [])
      expect(String(v.created)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test("array text in values is escaped for Slack markup, as in the rows", async () => {
    w = await startMcpWorld();
    const state = w.h.sims.get("lab-1")?.state;
    const fs = state?.fileSystems.get("projects");
    const name = "x<!channel>y";
    if (state && fs) state.fileSystems.set(name, { ...fs, name, id: "fs-markup" });
    const client = await w.connect(TOKENS.reader);
    const r = await client.callTool({ name: "fs_list", arguments: {} });
    const all = JSON.stringify((r.structuredContent as { tables: Table[] }).tables[0]?.values);
    expect(all).toContain("x&lt;!channel&gt;y");
    expect(all).not.toContain("<!channel>");
  });
});
