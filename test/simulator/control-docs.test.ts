/** docs/simulator.md documents every control operation the simulator serves (the list comes from the code). */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const doc = readFileSync(new URL("../../docs/simulator.md", import.meta.url), "utf8");
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("docs/simulator.md", () => {
  it("has a row for every operation the control interface knows, and the README links it", async () => {
    c = await openSim({ controlPath: true });
    const r = await c.call("POST", "/_control/no-such-op", {
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(r.status).toBe(404);
    const known = /Known: (.*)\./.exec(JSON.stringify(r.json()))?.[1]?.split(", ") ?? [];
    expect(known.length).toBeGreaterThan(15);
    for (const entry of known) {
      const [method, op] = entry.split(" ");
      const row = method === "GET" ? `| \`GET ${op}\` |` : `| \`${op}\` |`;
      expect(doc, entry).toContain(row);
    }
    expect(readme).toContain("(docs/simulator.md)");
  });
});
