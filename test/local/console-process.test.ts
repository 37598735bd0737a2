/**
 * The console as CI and people run it: the built entry point in a child process, fed through a pipe
 * (non-interactive) and through a pseudo-terminal made by util-linux `script` (interactive) when available.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
// Under this worktree (dist/ is ignored), never in node_modules, which worktrees may share; packages still
// resolve from the project root.
const outDir = join(root, "dist", "console-test");
const entry = join(outDir, "src", "main.js");

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  const tsc = join(root, "node_modules", ".bin", "tsc");
  // Type errors elsewhere in the tree must not stop the emit; the entry file existing is what counts.
  await promisify(execFile)(tsc, ["-p", join(root, "tsconfig.build.json"), "--outDir", outDir], {
    cwd: root,
  }).catch(() => undefined);
  expect(existsSync(entry)).toBe(true);
}, 180_000);

function runPiped(
  input: string,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: root,
      env: { PATH: process.env["PATH"] ?? "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe("non-interactive console (piped stdin)", () => {
  test("runs each line against the demo arrays and exits 0", async () => {
    const r = await runPiped("/array fs list\n/array fs show home --array fb-dr-01\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("alice> /array fs list");
    expect(r.stdout).toContain("== 11 file systems on array fb-lab-01 ==");
    expect(r.stdout).toMatch(/home\s+20 TiB\s+12\.4 TiB\s+62%/);
    expect(r.stdout).toContain("== File system home on fb-dr-01 ==");
  }, 60_000);

  test("a two-person approval with identity switches and numbered buttons", async () => {
    const script = [
      "/as bob",
      "/array fs resize scratch 4T",
      "1",
      "/as alice",
      "1",
      "/array fs show scratch",
    ].join("\n");
    const r = await runPiped(`${script}\n`);
    expect(r.stdout).toContain("[1] Approve   [2] Deny");
    expect(r.stdout).toContain("You asked for this, so it needs approval from someone else.");
    expect(r.stdout).toContain("Requested by bob, approved by alice.");
    expect(r.stdout).toMatch(/Used:\s+5\.6 TiB of 4 TiB \(140%\)/);
    // bob's own click failed, so the run as a whole reports failure.
    expect(r.code).toBe(1);
  }, 60_000);

  test("access-key import reads the secret from the line after the button and never prints it", async () => {
    const secret = "PipedSecretValue0123456789abcdefABCDEF01";
    const script = [
      "/as bob",
      "/array access-key import backup/veeam --key-id PSFBPIPEDIMPORT00001",
      "1",
      secret,
      "/array access-key list backup/veeam",
    ].join("\n");
    const r = await runPiped(`${script}\n`);
    expect(r.stdout).toContain("[1] Enter secret…   [2] Cancel");
    expect(r.stdout).toContain("Secret access key (not shown, kept nowhere):\n  (hidden)");
    expect(r.stdout).toContain("Imported access key PSFBPIPEDIMPORT00001 for backup/veeam on fb-lab-01.");
    expect(r.stdout).toMatch(/backup\/veeam\s+PSFBPIPEDIMPORT00001\s+yes/);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.code).toBe(0);
  }, 60_000);

  test("a failing line makes the exit code non-zero", async () => {
    const r = await runPiped("/array fs lsit\n");
    expect(r.stdout).toContain("Did you mean `fs list`?");
    expect(r.code).toBe(1);
  }, 60_000);

  test("failing lines end with a summary naming each by line number and command", async () => {
    const r = await runPiped("/array fs lsit\n/array fs list\n\n/array fs shwo home\n");
    expect(r.stdout).toContain("2 lines failed:\n  line 1: /array fs lsit\n  line 4: /array fs shwo home");
    expect(r.code).toBe(1);
  }, 60_000);

  test("a pipe ending with a change that waits for its confirmation exits non-zero and says nothing was done", async () => {
    const r = await runPiped("/array fs destroy db-dumps\n");
    expect(r.stdout).toContain("Confirm");
    expect(r.stdout).toContain(
      "Nothing was done for this change, which waits for a confirmation or approval",
    );
    expect(r.stdout).toMatch(/Nothing was done for this change.*db-dumps on fb-lab-01/);
    expect(r.code).toBe(1);
    // Confirmed in the script: done, exit 0.
    const ok = await runPiped("/array fs destroy db-dumps\n1\n");
    expect(ok.stdout).not.toContain("Nothing was done");
    expect(ok.code).toBe(0);
  }, 60_000);

  test("a bad --config is reported in one message, without a stack trace", async () => {
    const r = await runPiped("", ["--config", "/nonexistent/bot.yml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Cannot read the configuration file "/nonexistent/bot.yml" (ENOENT).\n');
  }, 60_000);
});

/** Runs the console with its stdout read by `reader`, which decides how fast (or whether) to read. */
function runWithReader(
  input: string,
  env: Record<string, string>,
  reader: (out: Readable, child: ChildProcessWithoutNullStreams) => Promise<string>,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { PATH: process.env["PATH"] ?? "", ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const read = reader(child.stdout, child);
  child.stdin.end(input);
  return Promise.all([exited, read]).then(([code, stdout]) => ({ code, stdout }));
}

describe("output through a pipe", () => {
  test("a slow reader still gets every line, and the exit code is 0", async () => {
    // A real pipe (64 KiB) to a reader that starts late: help answers need no array, so the console has written
    // everything long before the reader takes it, and must not exit until the pipe has taken the rest.
    const dir = mkdtempSync(join(tmpdir(), "fc-pipe-"));
    const lines = Array.from({ length: 300 }, (_, i) => `/array help fs ${i % 2 ? "list" : "show"}`);
    writeFileSync(join(dir, "in.txt"), `${lines.join("\n")}\n/array space\n`);
    const q = (p: string) => `'${p}'`;
    const script =
      `(${q(process.execPath)} ${q(entry)} < ${q(join(dir, "in.txt"))}; echo $? > ${q(join(dir, "code"))})` +
      ` | (sleep 1; cat > ${q(join(dir, "out.txt"))})`;
    await promisify(execFile)("sh", ["-c", script], { cwd: root, env: { PATH: process.env["PATH"] ?? "" } });
    const out = readFileSync(join(dir, "out.txt"), "utf8");
    expect(out.length).toBeGreaterThan(250_000);
    expect(out.match(/alice> \/array help fs/g)).toHaveLength(300);
    expect(out).toMatch(/alice> \/array space\n[\s\S]*fb-lab-01[\s\S]*$/);
    expect(readFileSync(join(dir, "code"), "utf8").trim()).toBe("0");
  }, 120_000);

  test("a reader that goes away makes the exit code non-zero", async () => {
    const lines = Array.from({ length: 40 }, () => "/array fs list --array all").join("\n");
    const r = await runWithReader(`${lines}\n`, {}, async (out) => {
      const first = await new Promise<string>((resolve) =>
        out.once("data", (d: Buffer) => resolve(d.toString())),
      );
      out.destroy();
      return first;
    });
    expect(r.stdout).toContain("alice>");
    expect(r.code).not.toBe(0);
  }, 120_000);

  test("a TMPDIR that does not exist does not stop the console", async () => {
    const tmp = join(mkdtempSync(join(tmpdir(), "fc-tmpdir-")), "missing");
    const r = await runWithReader(
      "/array perf --last 24h\n/array fs list\n",
      { TMPDIR: tmp },
      async (out) => {
        let text = "";
        for await (const chunk of out) text += String(chunk);
        return text;
      },
    );
    expect(r.stdout).toContain(`saved to ${tmp}/array-chatops-`);
    expect(r.stdout).toContain("== 11 file systems on array fb-lab-01 ==");
    expect(r.code).toBe(0);
  }, 60_000);
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe("interactive console (pseudo-terminal)", () => {
  test.runIf(hasScript)(
    "prompts, answers and quits",
    async () => {
      const child: ChildProcessWithoutNullStreams = spawn(
        "script",
        ["-qec", `${process.execPath} ${entry}`, "/dev/null"],
        { cwd: root, env: { PATH: process.env["PATH"] ?? "", TERM: "dumb" } },
      );
      let out = "";
      const waiters: { re: RegExp; resolve: () => void }[] = [];
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        for (const w of [...waiters]) {
          if (w.re.test(out)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      });
      const waitFor = (re: RegExp) =>
        new Promise<void>((resolve) => {
          if (re.test(out)) resolve();
          else waiters.push({ re, resolve });
        });
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

      await waitFor(/alice> /);
      expect(out).toContain("array-chatops console: demo arrays fb-lab-01, fb-dr-01 (simulated), no Slack.");
      child.stdin.write("/array fs show finance\r");
      await waitFor(/File system finance on fb-lab-01/);
      await waitFor(/Hard limit:\s+on[\s\S]*alice> /);
      child.stdin.write("/as bob\r");
      await waitFor(/bob> /);
      // A secret typed at the terminal is not echoed, nor brought back by the history.
      child.stdin.write("/array access-key import backup/veeam --key-id PSFBTTYIMPORT0000001\r");
      await waitFor(/\[1\] Enter secret…[\s\S]*bob> /);
      child.stdin.write("1\r");
      await waitFor(/Secret access key \(not shown, kept nowhere\): /);
      const secret = "TerminalSecretValue0123456789abcdefABCDE";
      child.stdin.write(`${secret}\r`);
      await waitFor(/Imported access key PSFBTTYIMPORT0000001[\s\S]*bob> /);
      expect(out).not.toContain(secret);
      child.stdin.write("/as carol\r");
      await waitFor(/carol> /);
      child.stdin.write("/quit\r");
      expect(await exited).toBe(0);
    },
    60_000,
  );
});
