import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { configPathFrom, loadConfig, parseConfigText } from "../../src/config/load.js";
import { UserFacingError } from "../../src/errors.js";

const files: Record<string, string> = {
  "/cfg/secrets/fb-lab-01.token": "T-lab\n",
  "/etc/array-chatops/corp-ca.pem": "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n",
  "/cfg/sim-ca.pem": "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n",
};
const readFile = (p: string) => {
  const v = files[p];
  if (v === undefined) throw Object.assign(new Error("nope"), { code: "ENOENT" });
  return v;
};

const MINIMAL = `
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_env: LAB_TOKEN
`;

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserFacingError);
    return ((err as UserFacingError).details["problems"] as string[]) ?? [(err as Error).message];
  }
  throw new Error("no error");
}

describe("loading the configuration", () => {
  test("the commented example validates, with secrets from env and files", () => {
    const text = readFileSync(new URL("../../config/example.yml", import.meta.url), "utf8");
    const loaded = parseConfigText(text, {
      source: "config/example.yml",
      env: { FB_PROD_01_TOKEN: "T-prod", FB_DR_01_TOKEN: "T-dr", FB_LAB_01_TOKEN: "T-lab" },
      readFile,
      baseDir: "/cfg",
    });
    expect(loaded.arrays.map((a) => a.name)).toEqual(["fb-prod-01", "fb-dr-01", "fb-lab-01"]);
    expect(loaded.arrays[2]?.apiToken?.reveal()).toBe("T-lab");
    expect(loaded.config.destructive.eradicate).toEqual({
      policy: "approve",
      approvers: 1,
      approver_role: "admin",
    });
    expect(loaded.config.destructive.array_settings).toEqual({
      policy: "approve",
      approvers: 1,
      approver_role: "operator",
    });
    expect(loaded.config.destructive.expiry).toBe(15 * 60_000);
    expect(loaded.slack).toBeUndefined();
  });

  test("defaults: deny unmapped users, eradicate by an admin, shrink by an operator, the rest confirm", () => {
    const { config } = parseConfigText(MINIMAL, { source: "x", env: { LAB_TOKEN: "t" }, readFile });
    expect(config.access.default_role).toBe("none");
    expect(config.destructive.shrink_below_usage).toEqual({
      policy: "approve",
      approvers: 1,
      approver_role: "operator",
    });
    expect(config.destructive.destroy).toEqual({ policy: "confirm" });
    expect(config.time_zone).toBe("UTC");
  });

  test("every problem is listed with its path", () => {
    const text = `${MINIMAL}
access:
  default_role: everyone
  admin: { users: ["@alice"] }
  overrides:
    - operator: { users: [U1] }
    - arrays: [nowhere]
channels:
  default_array: lab-9
  bindings:
    C1: { arrays: ["tag:gold"], default_array: lab-1 }
destructive:
  eradicate: sometimes
  expiry: soon
time_zone: Mars/Olympus
colour: blue
`;
    const problems = problemsOf(() =>
      parseConfigText(text, { source: "x", env: { LAB_TOKEN: "t" }, readFile }),
    );
    const joined = problems.join("\n");
    for (const path of [
      "access.default_role",
      "access.admin.users[0]",
      "access.overrides[0]",
      "destructive.eradicate",
      "destructive.expiry",
      "time_zone",
      "colour (line",
    ]) {
      expect(joined).toContain(path);
    }
    expect(problems.length).toBeGreaterThanOrEqual(7);
  });

  test("cross-references are checked once the sections are valid", () => {
    const text = `${MINIMAL}
access:
  overrides:
    - arrays: [nowhere]
channels:
  default_array: lab-9
  bindings:
    C1: { arrays: ["tag:gold"], default_array: lab-1 }
`;
    const problems = problemsOf(() =>
      parseConfigText(text, { source: "x", env: { LAB_TOKEN: "t" }, readFile }),
    );
    // Each once, with the line it is on.
    expect(problems).toHaveLength(4);
    expect(problems).toEqual(
      expect.arrayContaining([
        'access.overrides[0].arrays[0] (line 9): no array is named "nowhere"',
        'channels.default_array (line 11): no array is named "lab-9"',
        'channels.bindings.C1.arrays[0] (line 13): no array has tag "gold"',
        'channels.bindings.C1.default_array (line 13): "lab-1" is not among the channel\'s arrays',
      ]),
    );
  });

  test("YAML syntax errors name the line", () => {
    const problems = problemsOf(() =>
      parseConfigText("arrays:\n  - name: [unclosed\n", { source: "x", env: {}, readFile }),
    );
    expect(problems[0]).toMatch(/^line \d+, column \d+:/);
  });

  test("a missing secret is reported, never a stack trace", () => {
    const problems = problemsOf(() => parseConfigText(MINIMAL, { source: "x", env: {}, readFile }));
    expect(problems.join("\n")).toContain("LAB_TOKEN is not set");
  });

  test("Slack credentials in the environment switch on the Slack section", () => {
    const loaded = parseConfigText(MINIMAL, {
      source: "x",
      env: { LAB_TOKEN: "t", SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1" },
      readFile,
    });
    expect(loaded.slack?.mode).toBe("socket");
  });
});

describe("where the file comes from", () => {
  test("--config wins over the environment; both forms of the flag work", () => {
    expect(configPathFrom(["--config", "a.yml"], { ARRAY_CHATOPS_CONFIG: "b.yml" })).toBe("a.yml");
    expect(configPathFrom(["--config=c.yml"], {})).toBe("c.yml");
    expect(configPathFrom([], { ARRAY_CHATOPS_CONFIG: "b.yml" })).toBe("b.yml");
    expect(configPathFrom([], {})).toBeUndefined();
  });

  test("no file named: undefined (the caller runs the demo); a missing file is a clear error", () => {
    expect(loadConfig({ argv: [], env: {}, readFile })).toBeUndefined();
    expect(() => loadConfig({ argv: ["--config", "/nope.yml"], env: {}, readFile })).toThrow(
      /Cannot read the configuration file "\/nope.yml" \(ENOENT\)/,
    );
    expect(() => loadConfig({ argv: ["--config"], env: {}, readFile })).toThrow(/needs a file path/);
  });
});
