/**
 * config/example.yml runs as its header says: against three simulated arrays (what `npm run simulator --
 * --arrays 3 --ca-out config/sim-ca.pem` starts, here on free ports), with the token variables it names.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/main.js";
import {
  DEFAULT_API_TOKEN,
  type Simulator,
  selfSignedCertificate,
  startSimulator,
} from "../../src/simulator/index.js";

const example = new URL("../../config/example.yml", import.meta.url).pathname;
const sims: Simulator[] = [];
let dir: string;

beforeAll(async () => {
  // One certificate for all three, as the simulator CLI does; --ca-out writes it where the example expects it.
  const tls = await selfSignedCertificate();
  for (let i = 0; i < 3; i++)
    sims.push(await startSimulator({ arrayName: `sim-${i + 1}`, scenario: "demo", tls }));
  dir = mkdtempSync(join(tmpdir(), "fc-example-"));
  writeFileSync(join(dir, "sim-ca.pem"), tls.cert);
  let text = readFileSync(example, "utf8");
  sims.forEach((sim, i) => {
    text = text.replace(`https://127.0.0.1:${8443 + i}`, sim.url);
  });
  writeFileSync(join(dir, "example.yml"), text);
});
afterAll(async () => {
  for (const s of sims) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("config/example.yml", () => {
  test("its header gives the simulator command and every token variable the file needs", () => {
    const text = readFileSync(example, "utf8");
    const header = text.slice(0, text.indexOf("\narrays:"));
    expect(header).toContain("npm run simulator -- --arrays 3 --ca-out config/sim-ca.pem");
    const needed = [...text.matchAll(/^\s*api_token_env: (\w+)/gm)].map((m) => m[1]);
    expect(needed.length).toBe(3);
    for (const name of needed) expect(header).toContain(`${name}=T-demo`);
    expect([...text.matchAll(/address: https:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => m[1])).toEqual([
      "8443",
      "8444",
      "8445",
    ]);
  });

  test("starts the console against the simulators and answers", async () => {
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const stderr = new PassThrough();
    let err = "";
    stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const code = await main({
      argv: ["--config", join(dir, "example.yml")],
      env: {
        FB_PROD_01_TOKEN: DEFAULT_API_TOKEN,
        FB_DR_01_TOKEN: DEFAULT_API_TOKEN,
        FB_LAB_01_TOKEN: DEFAULT_API_TOKEN,
      },
      stdin: Readable.from(["/as U01ALICE\n/array fs list\n/array space --array tag:prod\n"]),
      stdout,
      stderr,
      interactive: false,
    });
    // Only warnings reach stderr (the example marks an array insecure), each one short line, never JSON.
    for (const line of err.split("\n").filter(Boolean)) expect(line).toMatch(/^warning: [^{]/);
    expect(out).toContain("== 11 file systems on array fb-lab-01 ==");
    expect(out).toMatch(/fb-prod-01[\s\S]*fb-dr-01|fb-dr-01[\s\S]*fb-prod-01/);
    expect(code).toBe(0);
  });
});
