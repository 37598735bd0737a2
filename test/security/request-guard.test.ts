/**
 * The access policy holds by construction: a command that declares less than it sends (here, written to cheat)
 * still cannot get a request past the policy, whether it sends through `ctx.array`'s generic calls, a planned
 * request sent as planned, or a client reached through `ctx.pool`. Real pipeline, real simulators over HTTPS.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { z } from "zod";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire, requestCount } from "../helpers/wire.js";

const quiet = {
  summary: "x",
  args: z.object({}),
  role: "viewer" as const,
  endpoints: [],
  render: (r: unknown) => ({ text: String(r), blocks: [], visibility: "ephemeral" as const }),
};

/** The typed API objects the `apis` command was handed, one per run. */
const typedSeen: unknown[] = [];

const sneaky = defineResource({
  name: "sneaky",
  summary: "commands that send more than they declare",
  commands: [
    defineCommand({
      ...quiet,
      verb: "raw",
      examples: ["sneaky raw"],
      run: async (_a, ctx) => {
        await ctx.array.delete("/file-systems", { query: { names: "home" } });
        return "SENT!";
      },
    }),
    defineCommand({
      ...quiet,
      verb: "typed",
      examples: ["sneaky typed"],
      run: async (_a, ctx) => {
        // A planned request sent as planned: the path every change takes.
        await ctx.array.send({ method: "DELETE", path: "/file-systems", query: { name: "home" } });
        return "SENT!";
      },
    }),
    defineCommand({
      ...quiet,
      verb: "pool",
      examples: ["sneaky pool"],
      run: async (_a, ctx) => {
        await ctx.pool.get("lab-2").get("/admins", { query: { expose: "True" } });
        return "SENT!";
      },
    }),
    defineCommand({
      ...quiet,
      verb: "key",
      examples: ["sneaky key"],
      run: async (_a, ctx) => {
        const page = await ctx.array.get("/array-connections/connection-key");
        return `got ${page.items.length}`;
      },
    }),
    defineCommand({
      ...quiet,
      verb: "apis",
      examples: ["sneaky apis"],
      run: async (_a, ctx) => {
        const first = ctx.array.fileSystems;
        const again = ctx.array.fileSystems;
        typedSeen.push(first);
        const pool = ctx.pool;
        const samePool = pool === ctx.pool && pool.get("lab-2") === ctx.pool.get("lab-2");
        return `same ${String(first === again)} pool ${String(samePool)}`;
      },
    }),
    defineCommand({
      ...quiet,
      verb: "walk",
      examples: ["sneaky walk"],
      run: async (_a, ctx) => {
        let n = 0;
        for await (const _ of ctx.array.iterate("/admins", { query: { expose: "True" } })) n++;
        return `SENT! ${n}`;
      },
    }),
    defineCommand({
      ...quiet,
      verb: "pages",
      examples: ["sneaky pages"],
      run: async (_a, ctx) => {
        const names: string[] = [];
        for await (const i of ctx.array.iterate<{ name: string }>("/hardware", { pageSize: 7 }))
          names.push(i.name);
        const all = await ctx.array.get<{ name: string }>("/hardware");
        let firstTwo = 0;
        for await (const _ of ctx.array.iterate("/hardware", { pageSize: 7 })) if (++firstTwo === 2) break;
        return `paged ${names.length} of ${all.items.length} same ${String(names.join() === all.items.map((i) => i.name).join())} stopped ${firstTwo}`;
      },
    }),
  ],
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }], resources: [sneaky] });
});
afterAll(async () => h.close());
beforeEach(() => {
  for (const s of h.sims.values()) s.control.resetStats();
});

const sent = () =>
  [...h.sims.values()].flatMap((s) =>
    Object.keys(s.control.stats().requests).filter((k) => /^\w+ \/api\/\d/.test(k)),
  );

test.each([
  ["sneaky raw", "carol", /DELETE \/file-systems.* needs the admin role/],
  ["sneaky raw", "bob", /DELETE \/file-systems.* needs the admin role/],
  ["sneaky typed", "bob", /DELETE \/file-systems.* needs the admin role/],
  ["sneaky pool", "alice", /the bot never sends it/],
  ["sneaky key", "bob", /GET \/array-connections\/connection-key.* needs the admin role/],
  ["sneaky walk", "alice", /the bot never sends it/],
])("%s as %s is refused at the guard; nothing reaches an array", async (line, user, why) => {
  const text = textOf(await h.run(user, `${line} --array lab-1`));
  expect(text).toMatch(why);
  expect(text).not.toContain("SENT!");
  expect(sent()).toEqual([]);
});

test("an admin's request that the table allows goes through the same guard", async () => {
  expect(textOf(await h.run("alice", "sneaky key --array lab-1"))).toMatch(/got \d/);
  expect(sent()).toEqual([onWire("GET /api/1.12/array-connections/connection-key")]);
});

test("an allowed iteration goes through the guard page by page, every item once, and stops when broken off", async () => {
  const text = textOf(await h.run("bob", "sneaky pages --array lab-1"));
  const m = /paged (\d+) of (\d+) same true stopped 2/.exec(text);
  expect(m, text).not.toBeNull();
  expect(Number(m?.[1])).toBeGreaterThan(7);
  expect(m?.[1]).toBe(m?.[2]);
  // Pages of 7 for the full walk, one GET for the whole list, one page for the walk broken off at its second item.
  const requests = [...h.sims.values()].map((s) => requestCount(s.control.stats(), "GET /api/1.12/hardware"));
  expect(requests.reduce((a, b) => a + b, 0)).toBe(Math.ceil(Number(m?.[2]) / 7) + 2);
});

test("a command's typed APIs are built once for its guarded client and never shared with another person's", async () => {
  typedSeen.length = 0;
  expect(textOf(await h.run("bob", "sneaky apis --array lab-1"))).toContain("same true pool true");
  expect(textOf(await h.run("carol", "sneaky apis --array lab-1"))).toContain("same true");
  expect(typedSeen).toHaveLength(2);
  expect(typedSeen[0]).not.toBe(typedSeen[1]);
  // Built over carol's guard: her typed delete is refused after bob's run built his.
  expect(textOf(await h.run("carol", "sneaky typed --array lab-1"))).toMatch(/needs the admin role/);
  expect(sent()).toEqual([]);
});
