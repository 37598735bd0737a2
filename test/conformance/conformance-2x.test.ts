/**
 * Conformance with Pure's own REST 2.x Python SDK (py-pure-client 1.90.0, vendored beside the repository in
 * ../shared/vendor, run by Debian's /usr/bin/python3): at 2.0, 2.12 and 2.24 the SDK logs in by API token and as an
 * OAuth2 API client, lists every GET of the operation table that 1.x also has (read from src/rest-spec, so a new
 * operation joins by itself; flows_2x.py checks that every GET the SDK's own client has on a 1.x path is among them)
 * and validates each page with its own models, and runs the flows of flows_2x.py and its modules against a demo
 * array and its DR peer; every point of points-2x.json must have passed at every version that carries it.
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
import { OPERATIONS } from "../../src/rest-spec/operations.js";
import { atLeast } from "../../src/rest-spec/versions.js";
import { startSimulator } from "../../src/simulator/index.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";
import { findSdk, requireImport, requireModules } from "./python.js";

const run = promisify(execFile);
const HERE = import.meta.dirname;
const SDK = findSdk(
  "shared/vendor/py-pure-client-1.90.0",
  "pypureclient/flashblade/__init__.py",
  process.env["PY_PURE_CLIENT_SDK"],
);
/** The SDK needs Debian's pydantic 1 and paramiko, which only the system Python has (its README). */
const PYTHON = "/usr/bin/python3";
const MODULES = {
  pydantic: "python3-pydantic",
  paramiko: "python3-paramiko",
  jwt: "python3-jwt",
  dateutil: "python3-dateutil",
  urllib3: "python3-urllib3",
};
const TOKEN = "T-conformance-2x";

interface Check {
  version: string;
  point: string;
  check: string;
  ok: boolean;
  detail: string;
}

const spec = JSON.parse(await readFile(join(HERE, "points-2x.json"), "utf8")) as {
  versions: string[];
  points: Record<string, string[]>;
};

/** A GET that answers pages (file downloads answer octet-stream) on a path the 1.x table has. */
function v1List(o: (typeof OPERATIONS)[number]): boolean {
  return (
    o.method === "GET" && o.versioned && o.v1 !== undefined && !o.v2?.response?.startsWith("octet-stream")
  );
}

/** Every such GET that `version` serves: the sweep's list, read from the operation table. */
function listsAt(version: string): string[] {
  return OPERATIONS.filter((o) => v1List(o) && o.v2 !== undefined && atLeast(version, o.v2.since)).map(
    (o) => o.path,
  );
}

let fixtures: string;

beforeAll(async () => {
  if (!existsSync(join(SDK, "pypureclient", "flashblade", "__init__.py"))) {
    throw new Error(
      `Pure's 2.x SDK is not at ${SDK}: the conformance suite needs py-pure-client 1.90.0 there (the shared ` +
        "checkout beside the repository), or PY_PURE_CLIENT_SDK set to its directory.",
    );
  }
  await requireModules(PYTHON, MODULES);
  await requireImport(
    PYTHON,
    SDK,
    "pypureclient.flashblade.FB_2_24.client",
    `Pure's 2.x SDK needs Debian's packages on ${PYTHON}: apt-get install -y ${Object.values(MODULES).join(" ")} (README, "Conformance").`,
  );
  fixtures = await mkdtemp(join(tmpdir(), "conformance-2x-"));
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  // PKCS#1: the SDK reads the key with paramiko's RSAKey.
  await writeFile(join(fixtures, "client-key.pem"), keys.privateKey.export({ type: "pkcs1", format: "pem" }));
  await writeFile(
    join(fixtures, "client-public.pem"),
    keys.publicKey.export({ type: "spki", format: "pem" }),
  );
  const cert = await generate([{ name: "commonName", value: "conf.example.com" }], {
    keySize: 2048,
    keyType: "rsa",
    algorithm: "sha256",
  });
  await writeFile(join(fixtures, "cert.pem"), cert.cert);
  await writeFile(join(fixtures, "key.pem"), cert.private);
  // A key that belongs to no certificate: an import pairing it with cert.pem is refused.
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await writeFile(join(fixtures, "other-key.pem"), other.privateKey.export({ type: "pkcs8", format: "pem" }));
});

afterAll(async () => {
  if (fixtures) await rm(fixtures, { recursive: true, force: true });
});

/**
 * One fresh demo array and its DR peer, each serving 1.0–1.12 and 2.0 up to `version`, driven by flows_2x.py; its
 * checks, parsed.
 */
async function flowsAt(version: string): Promise<Check[]> {
  const lists = join(fixtures, `lists-${version}.json`);
  // flows_2x.py also checks the other way: every GET the SDK has on a path of the 1.x table is in the sweep.
  const v1Gets = OPERATIONS.filter(v1List).map((o) => o.path);
  await writeFile(lists, JSON.stringify({ lists: listsAt(version), v1_gets: v1Gets }));
  const start = Date.now();
  const common = {
    tls: await selfSignedCertificate(),
    versions: `1.0-1.12,2.0-${version}`,
    apiTokens: [{ token: TOKEN, username: "pureuser" }],
    // Ten times faster than the wall clock, as in conformance.test.ts: a new target connects while the SDK polls.
    clock: () => start + (Date.now() - start) * 10,
  };
  const sim = await startSimulator({ ...common, scenario: "demo", arrayName: "fb-lab-01" });
  // The DR peer: array connections are made to it by address and key, and it holds the demo's replica targets.
  const dr = await startSimulator({ ...common, scenario: "demo-dr", arrayName: "conf-dr" });
  try {
    const { stdout } = await run(
      PYTHON,
      [
        join(HERE, "flows_2x.py"),
        `127.0.0.1:${sim.port}`,
        version,
        TOKEN,
        fixtures,
        lists,
        `127.0.0.1:${dr.port}`,
      ],
      {
        // The SDK writes its OAuth access token into the working directory.
        cwd: fixtures,
        env: { ...process.env, PYTHONPATH: SDK },
        timeout: 150_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Check);
  } finally {
    await Promise.all([sim.close(), dr.close()]);
  }
}

describe("Pure's 2.x SDK against the simulator", () => {
  for (const version of spec.versions) {
    it(`passes every flow at REST ${version}`, { timeout: 180_000 }, async () => {
      const checks = await flowsAt(version);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
      const lists = listsAt(version);
      const listed = new Set(checks.filter((c) => c.point === "lists").map((c) => c.check.split(" ")[1]));
      expect(
        lists.filter((path) => !listed.has(path)),
        "GETs the sweep did not reach",
      ).toEqual([]);
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
