/**
 * The image runs the bot with the heap and allocator settings the load test measured it with: the runtime stage's
 * NODE_OPTIONS and glibc variables are exactly src/ops/heap-options.ts, and Node accepts them; so do the npm
 * scripts of the benchmarks whose process is the bot's (bench/benches.ts marks them).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BENCHES } from "../../bench/benches.js";
import { HEAP_OPTIONS, MALLOC_ENV } from "../../src/ops/heap-options.js";
import { envOf, parseDockerfile, type Stage } from "./dockerfile.js";

const root = new URL("../..", import.meta.url).pathname;
const runtime = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8")).at(-1) as Stage;

describe("the image's heap settings", () => {
  it("are the ones the load test runs the bot with", () => {
    expect(envOf(runtime)["NODE_OPTIONS"]?.split(/\s+/)).toEqual([...HEAP_OPTIONS]);
  });

  it("set glibc's allocator as the load test runs the bot", () => {
    const env = envOf(runtime);
    expect(Object.keys(MALLOC_ENV).length).toBeGreaterThan(0);
    for (const [k, v] of Object.entries(MALLOC_ENV)) expect(env[k], k).toBe(v);
    // Only these: a glibc variable the load test does not set would make the image's memory unmeasured.
    expect(Object.keys(env).filter((k) => k.startsWith("MALLOC_"))).toEqual(Object.keys(MALLOC_ENV));
  });

  it("are the ones the bot's own benchmarks run with from their npm scripts", () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    const marked = BENCHES.filter((b) => b.heap);
    expect(marked.map((b) => b.name)).toEqual(["alerts-polling", "fleet-idle", "soak"]);
    for (const b of marked) {
      const script = scripts[b.command.replace(/^npm run /, "")] ?? "";
      const flags = /node ((?:--\S+ )+)dist\//.exec(script)?.[1]?.trim().split(" ") ?? [];
      expect(
        flags.filter((f) => f !== "--expose-gc"),
        b.name,
      ).toEqual([...HEAP_OPTIONS]);
      const envPrefix = /&& ((?:\w+=\S+ )*)node /.exec(script)?.[1]?.trim() ?? "";
      expect(envPrefix.split(" ").filter(Boolean), b.name).toEqual(
        Object.entries(MALLOC_ENV).map(([k, v]) => `${k}=${v}`),
      );
    }
  });

  it("are accepted by Node and set the old space's limit", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["-e", "console.log(require('node:v8').getHeapStatistics().heap_size_limit)"],
      { env: { ...process.env, NODE_OPTIONS: HEAP_OPTIONS.join(" ") } },
    );
    const limitMiB = Number(stdout.trim()) / 2 ** 20;
    const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(HEAP_OPTIONS.join(" "))?.[1]);
    expect(limitMiB).toBeGreaterThanOrEqual(oldSpace);
    expect(limitMiB).toBeLessThan(oldSpace + 64);
  });
});
