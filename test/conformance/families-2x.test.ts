/**
 * Conformance of the 2.x-only families the simulator models (issue 42) with Pure's own REST 2.x SDK
 * (py-pure-client 1.90.0, vendored beside the repository): at 2.24, the newest version the SDK knows, it lists
 * and changes NFS export, SMB and network access policies, exports, QoS, WORM data policies, legal holds,
 * maintenance windows, sessions, diagnostics, realms, fleets and node groups on a fresh demo array, and reads the
 * array's rules in the answers (families_2x.py). Every flow of the driver must have reported, and passed.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/index.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";
import { findSdk, requireModules } from "./python.js";

const run = promisify(execFile);
const HERE = import.meta.dirname;
const SDK = findSdk(
  "shared/vendor/py-pure-client-1.90.0",
  "pypureclient/flashblade/__init__.py",
  process.env["PY_PURE_CLIENT_SDK"],
);
const PYTHON = "/usr/bin/python3";
const TOKEN = "T-families-2x";
const VERSION = "2.24";
/** The points the driver's flows name (read from it): one that never reports fails as much as one that fails. */
const POINTS = [
  ...readFileSync(join(HERE, "families_2x.py"), "utf8").matchAll(/^ {4}p = "([a-z0-9-]+)"$/gm),
].map((m) => m[1] as string);

interface Check {
  point: string;
  check: string;
  ok: boolean;
  detail: string;
}

describe("Pure's 2.x SDK drives the 2.x-only families", () => {
  it(`lists and changes each family at REST ${VERSION}, reading the array's rules`, {
    timeout: 180_000,
  }, async () => {
    await requireModules(PYTHON, {
      pydantic: "python3-pydantic",
      paramiko: "python3-paramiko",
      jwt: "python3-jwt",
      dateutil: "python3-dateutil",
      urllib3: "python3-urllib3",
    });
    const sim = await startSimulator({
      tls: await selfSignedCertificate(),
      versions: `1.0-1.12,2.0-${VERSION}`,
      apiTokens: [{ token: TOKEN, username: "pureuser" }],
      scenario: "demo",
      arrayName: "fb-lab-01",
    });
    try {
      const { stdout } = await run(
        PYTHON,
        [join(HERE, "families_2x.py"), `127.0.0.1:${sim.port}`, VERSION, TOKEN],
        { env: { ...process.env, PYTHONPATH: SDK }, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      );
      const checks = stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Check);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
      const reported = new Set(checks.map((c) => c.point));
      expect(POINTS.length).toBeGreaterThan(7);
      expect(checks.length).toBeGreaterThan(45);
      expect(POINTS.filter((p) => !reported.has(p))).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});
