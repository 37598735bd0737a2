import { describe, expect, it } from "vitest";
import { storeOptions } from "../../src/alerts/start.js";
import { parseConfigText } from "../../src/config/load.js";

const ARRAYS = `
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_env: LAB_TOKEN
`;
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

function load(store: string, env: Record<string, string> = {}, files: Record<string, string> = {}) {
  return parseConfigText(`${ARRAYS}${store}`, {
    source: "/etc/bot/bot.yml",
    env: { LAB_TOKEN: "t", ...env },
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return f;
    },
    baseDir: "/etc/bot",
  });
}

describe("store.kind: redis in the configuration", () => {
  it("opens with the address, TLS, user, password from the environment and the key prefix", () => {
    const loaded = load(
      "store:\n  kind: redis\n  address: redis.internal:6380\n  tls: { ca_file: ca.pem }\n  username: bot\n  password_env: REDIS_PASSWORD\n  key_prefix: 'team-a:'\n",
      { REDIS_PASSWORD: " s3cret " },
      { "/etc/bot/ca.pem": PEM },
    );
    expect(storeOptions(loaded)).toEqual({
      kind: "redis",
      host: "redis.internal",
      port: 6380,
      db: 0,
      keyPrefix: "team-a:",
      username: "bot",
      password: "s3cret",
      tls: { insecure: false, caFile: "/etc/bot/ca.pem" },
      healthCheck: { intervalMs: 1_000, timeoutMs: 1_000 },
      replicaAckTimeoutMs: 500,
    });
    // The secret never prints with the config.
    expect(JSON.stringify(loaded)).not.toContain("s3cret");
  });

  it("reads the password from a file, defaults port and prefix, and leaves TLS off unless asked", () => {
    const loaded = load(
      "store:\n  kind: redis\n  address: redis\n  password_file: /run/secrets/redis\n",
      {},
      { "/run/secrets/redis": "pw\n" },
    );
    expect(storeOptions(loaded)).toEqual({
      kind: "redis",
      host: "redis",
      port: 6379,
      db: 0,
      keyPrefix: "array-chatops:",
      password: "pw",
      healthCheck: { intervalMs: 1_000, timeoutMs: 1_000 },
      replicaAckTimeoutMs: 500,
    });
  });

  it("takes sentinels, their master name and password, and the replica acknowledgements", () => {
    const loaded = load(
      [
        "store:",
        "  kind: redis",
        "  sentinels: [s1.internal, 's2.internal:26380']",
        "  sentinel_name: bot-primary",
        "  password_env: REDIS_PASSWORD",
        "  sentinel_password_file: /run/secrets/sentinel",
        "  min_replicas_acked: 2",
        "  replica_ack_timeout: 0.25s",
        "",
      ].join("\n"),
      { REDIS_PASSWORD: "pw" },
      { "/run/secrets/sentinel": "sentinel-pw\n" },
    );
    expect(storeOptions(loaded)).toMatchObject({
      kind: "redis",
      sentinels: [
        { host: "s1.internal", port: 26379 },
        { host: "s2.internal", port: 26380 },
      ],
      sentinelName: "bot-primary",
      password: "pw",
      sentinelPassword: "sentinel-pw",
      minReplicasAcked: 2,
      replicaAckTimeoutMs: 250,
    });
    expect(JSON.stringify(loaded)).not.toContain("sentinel-pw");
  });

  it("refuses both an address and sentinels, neither, or sentinels without their master name", () => {
    expect(() =>
      load("store:\n  kind: redis\n  address: r\n  sentinels: [s1]\n  sentinel_name: m\n"),
    ).toThrow(/store\.sentinels.*either address or sentinels, not both/);
    expect(() => load("store:\n  kind: redis\n")).toThrow(/store\.address.*or sentinels and sentinel_name/);
    expect(() => load("store:\n  kind: redis\n  sentinels: [s1]\n")).toThrow(/store\.sentinel_name/);
    expect(() =>
      load("store:\n  kind: redis\n  sentinels: [s1]\n  sentinel_name: m\n  sentinel_password_env: NOPE\n"),
    ).toThrow(/store\.sentinel_password_env.*environment variable NOPE is not set/);
  });

  it("takes the health-check PING interval and time-out, and refuses times out of range", () => {
    const loaded = load("store:\n  kind: redis\n  address: r\n  ping_interval: 2s\n  ping_timeout: 0.5s\n");
    expect(storeOptions(loaded)).toMatchObject({ healthCheck: { intervalMs: 2_000, timeoutMs: 500 } });
    expect(() => load("store:\n  kind: redis\n  address: r\n  ping_timeout: 2m\n")).toThrow(
      /store\.ping_timeout.*"2m" is not a time from 100 ms to 30 s/,
    );
  });

  it("reports every problem with its path", () => {
    expect(() => load("store:\n  kind: redis\n  address: 'redis://x:1'\n")).toThrow(/store\.address/);
    expect(() =>
      load("store:\n  kind: redis\n  address: r\n  password_env: P\n  password_file: /f\n"),
    ).toThrow(/only one of password_env and password_file/);
    const err = (() => {
      try {
        load("store:\n  kind: redis\n  address: r\n  password_env: MISSING\n  tls: { ca_file: /nope.pem }\n");
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    // Both in one report, each with its path and YAML line.
    expect(err?.message).toContain("2 problems");
    expect(err?.message).toMatch(/store\.password_env \(line \d+\): environment variable MISSING is not set/);
    expect(err?.message).toMatch(/store\.tls\.ca_file \(line \d+\): cannot read "\/nope\.pem" \(ENOENT\)/);
  });
});
