/**
 * The deployment examples stay valid: their bot.yml files load with the real config loader (Redis store,
 * secrets from where the manifests put them), and the Kubernetes manifest keeps three replicas, both probes,
 * a disruption budget and Secret references.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { storeOptions } from "../../src/alerts/start.js";
import { parseConfigText } from "../../src/config/load.js";

const DEPLOY = join(import.meta.dirname, "../../deploy");
type Doc = { kind?: string; data?: Record<string, string>; spec?: Record<string, unknown> };
const manifest = (file: string): Doc[] =>
  parseAllDocuments(readFileSync(join(DEPLOY, file), "utf8")).map((d) => d.toJS() as Doc);

describe("deploy/", () => {
  it("the compose bot.yml loads: the simulated array and the compose Redis", () => {
    const loaded = parseConfigText(readFileSync(join(DEPLOY, "compose/bot.yml"), "utf8"), {
      source: "/config/bot.yml",
      env: { SIM_TOKEN: "T-demo" },
      readFile: () => "",
      baseDir: "/config",
    });
    expect(storeOptions(loaded)).toMatchObject({ kind: "redis", host: "redis", port: 6379 });
  });

  it("the Kubernetes manifest: 3 replicas, probes on /healthz and /readyz, a PDB, Secret refs, Redis address", () => {
    const docs = manifest("kubernetes/array-chatops.yaml");
    const cm = docs.find((d) => d.kind === "ConfigMap");
    const loaded = parseConfigText(cm?.data?.["bot.yml"] ?? "", {
      source: "/config/bot.yml",
      env: { FB_PROD_TOKEN: "T-x" },
      readFile: (p) => (p === "/run/secrets/redis/password" ? "pw\n" : ""),
      baseDir: "/config",
    });
    expect(storeOptions(loaded)).toMatchObject({
      kind: "redis",
      host: "redis.array-chatops.svc.cluster.local",
      password: "pw",
    });
    const dep = docs.find((d) => d.kind === "Deployment");
    expect(dep?.spec?.["replicas"]).toBe(3);
    const text = JSON.stringify(dep);
    expect(text).toContain('"livenessProbe":{"httpGet":{"path":"/healthz"');
    expect(text).toContain('"readinessProbe":{"httpGet":{"path":"/readyz"');
    expect(text).toContain('"secretRef":{"name":"array-chatops-slack"}');
    expect(text).toContain('"secretName":"array-chatops-redis"');
    expect(docs.find((d) => d.kind === "PodDisruptionBudget")?.spec?.["minAvailable"]).toBe(2);
    const redis = JSON.stringify(manifest("kubernetes/redis.yaml"));
    expect(redis).toContain('"--appendfsync","always"');
  });
});
