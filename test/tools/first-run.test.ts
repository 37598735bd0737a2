/**
 * README's first-run steps on a clean clone: the files git would check out (no dist/, no build stamp), the
 * shared dependencies linked in place of `npm ci`, then `npm start` exactly as the README says, fed the
 * README's own piped example. It must build once and end in an answer.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const readme = readFileSync(join(root, "README.md"), "utf8");
let clone: string;

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), "fc-clone-"));
  const { stdout } = await promisify(execFile)(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    {
      cwd: root,
      maxBuffer: 64 << 20,
    },
  );
  for (const file of stdout.split("\0").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

function npmStart(input: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["start", "--silent"], {
      cwd: clone,
      env: { PATH: process.env["PATH"] ?? "", HOME: clone },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(input);
  });
}

describe("README first run", () => {
  test("npm start on a clean clone builds once and answers the README's piped example", async () => {
    expect(readme).toContain("npm ci && npm start");
    const piped = /`echo "([^"]+)" \| npm start`/.exec(readme)?.[1];
    expect(piped).toBe("/array space --array all");
    expect(existsSync(join(clone, "dist"))).toBe(false);

    const first = await npmStart(`${piped}\n`);
    expect(first.out).toContain("alice> /array space --array all");
    expect(first.out).toMatch(/fb-lab-01[\s\S]*fb-dr-01|fb-dr-01[\s\S]*fb-lab-01/);
    expect(first.code).toBe(0);
    expect(existsSync(join(clone, "dist", ".build-stamp"))).toBe(true);

    // The second start does not build again.
    const stamp = readFileSync(join(clone, "dist", ".build-stamp"), "utf8");
    const second = await npmStart("/array fs list\n");
    expect(second.out).toContain("== 11 file systems on array fb-lab-01 ==");
    expect(readFileSync(join(clone, "dist", ".build-stamp"), "utf8")).toBe(stamp);
  }, 240_000);
});
