import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createConsoleSession } from "../../src/local/console-session.js";
import { type Harness, startHarness } from "../core/harness.js";
import { REST2 } from "../helpers/wire.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-old", versions: "1.0-1.4" }] });
});
afterAll(async () => h.close());

async function show(line: string): Promise<{ ok: boolean; text: string }> {
  const out: string[] = [];
  const s = createConsoleSession({
    pipeline: h.pipeline,
    outcomes: { records: h.audits },
    initialUser: "carol",
    knownUsers: { carol: "viewer" },
    io: { write: (t) => out.push(t), ask: async () => undefined },
  });
  const { ok } = await s.handleLine(line);
  return { ok, text: out.join("\n") };
}

describe("fs show", () => {
  test("NFSv3 and NFSv4.1 apart, export rules, SMB and HTTP, snapshot directory, attached policies", async () => {
    const fs = h.sims.get("lab-1")?.state.fileSystems.get("home");
    if (!fs) throw new Error("the demo has home");
    fs.nfs.v3_enabled = false;
    fs.nfs.v4_1_enabled = true;
    fs.nfs.rules = "10.1.0.0/16(rw)";
    fs.http.enabled = true;
    fs.snapshot_directory_enabled = false;
    const { ok, text } = await show("/array fs show home --array lab-1");
    expect(ok).toBe(true);
    expect(text).toMatch(/NFSv3: +off/);
    expect(text).toMatch(/NFSv4\.1: +on/);
    // On 2.x the demo exports home through the export policy `default`, whose rules decide, not its own.
    expect(text).toMatch(
      REST2 ? /Export rules: +policy default: \*\(ro,root_squash\)/ : /Export rules: +10\.1\.0\.0\/16\(rw\)/,
    );
    expect(text).toMatch(/SMB: +on/);
    expect(text).toMatch(/HTTP: +on/);
    expect(text).toMatch(/Snapshot directory: +off/);
    expect(text).toMatch(/Policies: +daily/);
  });

  test("fields an older REST version lacks show as – with no error", async () => {
    const { ok, text } = await show("/array fs show home --array lab-old");
    expect(ok).toBe(true);
    expect(text).toMatch(/NFSv3: +on/);
    expect(text).toMatch(/NFSv4\.1: +–/);
    expect(text).toMatch(/Policies: +–/);
    expect(text).not.toMatch(/error/i);
  });
});
