import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DATA_DIR_ENV } from "../../src/config/data-dir.js";
import { parseConfigText } from "../../src/config/load.js";

const ARRAYS = `
arrays:
  - name: lab-1
    address: https://lab-1.example.net
    api_token_env: LAB_TOKEN
`;

function dataDirOf(store: string, env: Record<string, string> = {}): string | undefined {
  const { config } = parseConfigText(`${ARRAYS}${store}`, {
    source: "/etc/bot/bot.yml",
    env: { LAB_TOKEN: "t", ...env },
    readFile: () => "",
    baseDir: "/etc/bot",
  });
  return config.store.kind === "sqlite" ? config.store.data_dir : undefined;
}

describe("the store's data directory", () => {
  test("defaults to data beside the configuration file", () => {
    expect(dataDirOf("")).toBe(join("/etc/bot", "data"));
  });

  test(`${DATA_DIR_ENV} sets it when the file does not: absolute as given, relative from the file's directory`, () => {
    expect(dataDirOf("", { [DATA_DIR_ENV]: "/app/data" })).toBe("/app/data");
    expect(dataDirOf("", { [DATA_DIR_ENV]: "state" })).toBe(join("/etc/bot", "state"));
  });

  test("the file's store.data_dir wins over the environment", () => {
    const store = "store:\n  kind: sqlite\n  data_dir: /var/lib/bot\n";
    expect(dataDirOf(store, { [DATA_DIR_ENV]: "/app/data" })).toBe("/var/lib/bot");
    expect(dataDirOf("store:\n  kind: sqlite\n  data_dir: db\n")).toBe(join("/etc/bot", "db"));
  });

  test("an empty variable is a clear error; a memory store has no directory", () => {
    // Reported with the file's other problems, in the one CONFIG_INVALID report.
    expect(() => dataDirOf("", { [DATA_DIR_ENV]: " " })).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        message: expect.stringContaining(`${DATA_DIR_ENV} is set but empty`),
      }),
    );
    expect(dataDirOf("store:\n  kind: memory\n", { [DATA_DIR_ENV]: "/app/data" })).toBeUndefined();
  });
});
