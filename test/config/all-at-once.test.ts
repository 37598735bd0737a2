/** Every problem of a configuration file in one report, and no credential from an address in any output. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { UserFacingError } from "../../src/errors.js";
import { createLogger } from "../../src/logger.js";
import { main } from "../../src/main.js";

const noFiles = (p: string): string => {
  throw Object.assign(new Error(`nope: ${p}`), { code: "ENOENT" });
};

function failure(text: string, env: Record<string, string> = {}): UserFacingError {
  try {
    parseConfigText(text, { source: "bot.yml", env, readFile: noFiles, baseDir: "/cfg" });
  } catch (err) {
    if (err instanceof UserFacingError) return err;
    throw err;
  }
  throw new Error("the configuration was accepted");
}

describe("configuration errors come in one report", () => {
  test("a schema error, a dangling reference and a missing file are all listed, each with its path", () => {
    const err = failure(`
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_file: secrets/lab-1.token
channels:
  default_array: lab-9
log_level: loud
`);
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.message).toContain("has 3 problems");
    // Each with its path and its line in the file.
    expect(err.message).toContain("log_level (line 8): ");
    expect(err.message).toContain('channels.default_array (line 7): no array is named "lab-9"');
    expect(err.message).toContain(
      'arrays[0].api_token_file (line 5): cannot read token file "secrets/lab-1.token" (ENOENT)',
    );
  });

  test("an unset token variable is reported beside schema errors of other arrays", () => {
    const err = failure(`
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_env: LAB_1_TOKEN
  - name: lab-2
    address: http://lab-2.example.net
    api_token_env: LAB_2_TOKEN
access:
  overrides:
    - tags: [nope]
`);
    expect(err.message).toContain("arrays[1].address");
    expect(err.message).toContain(
      "arrays[0].api_token_env (line 5): environment variable LAB_1_TOKEN is not set",
    );
    expect(err.message).not.toContain("LAB_2_TOKEN is not set");
  });
});

describe("credentials in addresses", () => {
  test("are refused, and the error shows the address without them", () => {
    const err = failure(
      `
arrays:
  - name: lab-1
    address: https://admin:hunter2@lab-1.example.net
    api_token_env: T
`,
      { T: "t" },
    );
    expect(err.message).toContain("carries credentials");
    expect(err.message).toContain("https://admin:***@lab-1.example.net");
    expect(err.message).not.toContain("hunter2");
    expect(JSON.stringify(err.details)).not.toContain("hunter2");
  });

  test("never reach a log line, wherever they appear in it", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ destination: sink });
    log.warn(
      { address: "https://admin:hunter2@fb.example.net:8443" },
      "could not reach https://u:p4ss@fb.example.net",
    );
    log.error({ err: new Error("fetch https://admin:hunter2@x.example.net failed") }, "boom");
    const all = lines.join("");
    expect(all).toContain("https://admin:***@fb.example.net:8443");
    expect(all).not.toContain("hunter2");
    expect(all).not.toContain("p4ss");
  });
});

describe("hostile names in the file", () => {
  test("a token variable called like an Object member is simply unset", () => {
    const err = failure(`
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_env: constructor
`);
    expect(err.message).toContain(
      "arrays[0].api_token_env (line 5): environment variable constructor is not set",
    );
  });
});

describe("start-up output", () => {
  test("a start refused for a credential in an address prints the address without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fc-creds-"));
    try {
      writeFileSync(
        join(dir, "bot.yml"),
        "arrays:\n  - name: lab-1\n    address: https://root:s3cr3t-pw@lab-1.example.net\n    api_token_env: T\n",
      );
      const stderr = new PassThrough();
      let err = "";
      stderr.on("data", (d: Buffer) => {
        err += d.toString();
      });
      const code = await main({
        argv: ["--config", join(dir, "bot.yml")],
        env: { T: "t" },
        stdin: Readable.from([]),
        stdout: new PassThrough(),
        stderr,
        interactive: false,
      });
      expect(code).toBe(2);
      expect(err).toContain("https://root:***@lab-1.example.net");
      expect(err).not.toContain("s3cr3t-pw");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
