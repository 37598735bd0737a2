/**
 * Start-up errors name the setting and the fix, each within a time limit (a data_dir under /proc used to spin
 * at 93 % CPU with no output): the bot's own main(), as `npm start -- --config` runs it, on one file per row.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runMain } from "../local/console-world.js";

const dir = mkdtempSync(join(tmpdir(), "startup-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const aFile = join(dir, "a-file");
writeFileSync(aFile, "x");

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const ARRAY = ["arrays:", "  - name: lab", "    address: https://127.0.0.1:1", "    api_token_env: T"];
const withStore = (...store: string[]) => [...ARRAY, "store:", ...store.map((l) => `  ${l}`)].join("\n");

interface Row {
  name: string;
  yaml: () => Promise<string> | string;
  says: (string | RegExp)[];
  never?: string[];
}

const ROWS: Row[] = [
  {
    name: "an unknown key gets the key it may mean, at its line, and no 'missing' for the same typo",
    yaml: () => ARRAY.join("\n").replace("address:", "adress:"),
    says: ["has 1 problem:", "arrays[0].adress (line 3): unknown key. Did you mean `address`?"],
    never: ["expected string", "received undefined"],
  },
  {
    name: "a missing key says it is missing",
    yaml: () => ARRAY.filter((l) => !l.includes("address")).join("\n"),
    says: ["arrays[0].address (line 2): missing; this setting is required"],
    never: ["received undefined"],
  },
  {
    name: "a tab in the indentation is one problem at its line",
    yaml: () => ARRAY.join("\n").replace("    api_token_env", "\tapi_token_env"),
    says: ["has 1 problem:", "line 4, column 1: Tabs are not allowed as indentation"],
  },
  {
    name: "an unclosed quote is one problem at the line it opens, not at the end of the file",
    yaml: () => [...ARRAY, "access:", "  admin: { users: [alice] }"].join("\n").replace("https", '"https'),
    says: ["has 1 problem:", 'line 3, column 14: the quote " that starts here is never closed'],
  },
  {
    name: "a data_dir under /proc names store.data_dir and why, and does not hang",
    yaml: () => withStore("kind: sqlite", "data_dir: /proc/array-chatops-test/state"),
    says: [
      "store.data_dir: cannot create /proc/array-chatops-test/state (at /proc/array-chatops-test): ENOENT",
    ],
  },
  {
    name: "a data_dir below a file is ENOTDIR, naming the file in the way",
    yaml: () => withStore("kind: sqlite", `data_dir: ${aFile}/state`),
    says: [`store.data_dir: cannot create ${aFile}/state (at ${aFile}): ENOTDIR`],
  },
  {
    name: "a data_dir that is a file is ENOTDIR",
    yaml: () => withStore("kind: sqlite", `data_dir: ${aFile}`),
    says: [`store.data_dir: cannot create ${aFile}: ENOTDIR, a part of the path is a file`],
    never: ["dataDir"],
  },
  {
    name: "Redis unreachable: the console says it cannot start and why, not 'try again in a moment'",
    yaml: async () => withStore("kind: redis", `address: 127.0.0.1:${await closedPort()}`),
    says: [
      /^The console cannot start: Redis at 127\.0\.0\.1:\d+ \(store\.address\) does not answer \(.*ECONNREFUSED/m,
    ],
    never: ["Try again in a moment", "read-only commands still work"],
  },
];

describe("start-up errors", () => {
  test.each(ROWS)(
    "$name",
    async (row) => {
      const file = join(dir, `${row.name.replace(/\W+/g, "-").slice(0, 40)}.yml`);
      writeFileSync(file, `${await row.yaml()}\n`);
      const { code, out, err } = await runMain(["--config", file], ["/array fs list"], { T: "token" });
      expect(code).toBe(2);
      expect(out).toBe("");
      for (const s of row.says) typeof s === "string" ? expect(err).toContain(s) : expect(err).toMatch(s);
      for (const s of row.never ?? []) expect(err).not.toContain(s);
      // One message, no stack trace.
      expect(err).not.toMatch(/^\s+at /m);
    },
    15_000,
  );
});
