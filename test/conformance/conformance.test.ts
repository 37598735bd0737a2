/**
 * Conformance: Pure's own REST 1.x Python SDK (purity_fb 1.12.3, vendored beside the repository in
 * ../shared/vendor) drives the simulator over real HTTPS at 1.8, 1.9 and 1.12 through the flows of flows.py,
 * and every point of points.json must have passed at every version that carries it. Two simulated arrays run
 * (the demo and its DR peer), so connections, replica targets and their sources are driven end to end.
 */
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/index.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";
import { findSdk, requireModules } from "./python.js";

const run = promisify(execFile);
const HERE = import.meta.dirname;
const SDK = findSdk("shared/vendor/purity_fb-1.12.3", "purity_fb/__init__.py", process.env["PURITY_FB_SDK"]);
/** The modules purity_fb imports, each with the Debian package that brings it (.ci/run installs them). */
const MODULES = {
  urllib3: "python3-urllib3",
  six: "python3-six",
  certifi: "python3-certifi",
  dateutil: "python3-dateutil",
};
const TOKEN = "T-conformance";

interface Check {
  version: string;
  point: string;
  check: string;
  ok: boolean;
  detail: string;
}

const spec = JSON.parse(await readFile(join(HERE, "points.json"), "utf8")) as {
  versions: string[];
  points: Record<string, string[]>;
};

let fixtures: string;

beforeAll(async () => {
  if (!existsSync(join(SDK, "purity_fb", "__init__.py"))) {
    throw new Error(
      `Pure's Python SDK is not at ${SDK}. The conformance suite needs purity_fb 1.12.3 there ` +
        "(the shared checkout beside the repository), or PURITY_FB_SDK set to its directory.",
    );
  }
  await requireModules("python3", MODULES);
  fixtures = await mkdtemp(join(tmpdir(), "conformance-"));
  const made = await generate(
    [
      { name: "commonName", value: "conf.example.com" },
      { name: "organizationName", value: "Conformance Inc" },
      { name: "countryName", value: "NL" },
    ],
    { keySize: 2048, keyType: "rsa", algorithm: "sha256" },
  );
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await writeFile(join(fixtures, "cert.pem"), made.cert);
  await writeFile(join(fixtures, "key.pem"), made.private);
  await writeFile(join(fixtures, "other-key.pem"), other.privateKey.export({ type: "pkcs8", format: "pem" }));
  await writeFile(join(fixtures, "public.pem"), other.publicKey.export({ type: "spki", format: "pem" }));
});

afterAll(async () => {
  if (fixtures) await rm(fixtures, { recursive: true, force: true });
});

/** One fresh demo array serving up to `version`, driven by flows.py; its checks, parsed. */
async function flowsAt(version: string): Promise<Check[]> {
  const start = Date.now();
  const common = {
    tls: await selfSignedCertificate(),
    versions: `1.0-${version}`,
    apiTokens: [{ token: TOKEN, username: "pureuser" }],
    // Ten times faster than the wall clock, so a new target connects while the SDK polls for it.
    clock: () => start + (Date.now() - start) * 10,
  };
  const sim = await startSimulator({ ...common, scenario: "demo", arrayName: "fb-lab-01" });
  // The peer: array connections are made to it by address, and it holds the demo's replica targets.
  const dr = await startSimulator({ ...common, scenario: "demo-dr", arrayName: "conf-dr" });
  try {
    const { stdout } = await run(
      "python3",
      [join(HERE, "flows.py"), `127.0.0.1:${sim.port}`, version, TOKEN, fixtures, `127.0.0.1:${dr.port}`],
      { env: { ...process.env, PYTHONPATH: SDK }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Check);
  } finally {
    await Promise.all([sim.close(), dr.close()]);
  }
}

describe("Pure's SDK against the simulator", () => {
  for (const version of spec.versions) {
    it(`passes every flow at REST ${version}`, { timeout: 120_000 }, async () => {
      const checks = await flowsAt(version);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
      const covered = new Set(checks.map((c) => c.point));
      const expected = Object.entries(spec.points)
        .filter(([, versions]) => versions.includes(version))
        .map(([point]) => point);
      expect(
        expected.filter((p) => !covered.has(p)),
        "points without a passing check",
      ).toEqual([]);
    });
  }
});
