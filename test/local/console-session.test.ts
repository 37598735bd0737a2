import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createConsoleSession } from "../../src/local/console-session.js";
import { KEYTAB_BASE64 } from "../commands/demo-examples.js";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

function session(answers: string[] = []) {
  const out: string[] = [];
  const s = createConsoleSession({
    pipeline: h.pipeline,
    outcomes: { records: h.audits },
    initialUser: "alice",
    knownUsers: { alice: "admin", bob: "operator", carol: "viewer", dave: "admin" },
    io: {
      write: (t) => out.push(t),
      ask: async (q) => {
        out.push(q);
        return answers.shift();
      },
    },
  });
  return { s, out, all: () => out.join("\n") };
}

describe("console session", () => {
  test("commands, identity switches and numbered buttons drive the same pipeline", async () => {
    const { s, all } = session();
    expect(await s.handleLine("/as bob")).toEqual({ ok: true });
    expect(await s.handleLine("/array fs resize scratch 4T")).toEqual({ ok: true });
    expect(all()).toContain("[1] Approve   [2] Deny");
    expect(await s.handleLine("1")).toEqual({ ok: false });
    expect(all()).toContain("You asked for this, so it needs approval from someone else.");
    await s.handleLine("/as alice");
    expect(await s.handleLine("1")).toEqual({ ok: true });
    expect(all()).toContain("Resized scratch on lab-1: 5 TiB → 4 TiB.");
    expect(h.sims.get("lab-1")?.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);
  });

  test("a number clicks a button of the last answer; an earlier answer's needs its id, and each click names its answer", async () => {
    const { s, all, out } = session();
    const destroyed = () => h.sims.get("lab-1")?.state.snapshots.get("projects.q3-close")?.destroyed;
    expect(destroyed()).toBe(true);
    expect(await s.handleLine("/array space trash")).toEqual({ ok: true });
    expect(all()).toContain("[1] Recover projects.q3-close");
    // A command that runs at once shows no buttons: the `1` meant for it must not reach the listing before it.
    expect(await s.handleLine("/array fs list --limit 1")).toEqual({ ok: true });
    expect(await s.handleLine("1")).toEqual({ ok: false });
    expect(out.at(-1)).toMatch(
      /^The last answer \(alice's \/array fs list --limit 1\) has no buttons, so 1 clicks nothing\. For the buttons of answer \d+ \(alice's \/array space trash\), type \d+:1 to \d+:\d+\.$/,
    );
    expect(destroyed()).toBe(true);
    const id = /answer (\d+) \(alice's \/array space trash\)/.exec(out.at(-1) ?? "")?.[1];
    expect(await s.handleLine(`${id}:1`)).toEqual({ ok: true });
    expect(all()).toContain(
      `(clicking [1] Recover projects.q3-close on answer ${id} (alice's /array space trash))`,
    );
    expect(destroyed()).toBe(false);
    expect(await s.handleLine(`${id}:99`)).toEqual({ ok: false });
    expect(out.at(-1)).toContain(`There is no button 99 on answer ${id}`);
    expect(await s.handleLine("999:1")).toEqual({ ok: false });
  });

  test("/as takes only the cast's names: prototype keys are nobody", async () => {
    const { s, all } = session();
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(await s.handleLine(`/as ${name}`)).toEqual({ ok: false });
      expect(all()).toContain(`"${name}" cannot be a user name; pick another.`);
    }
    expect(await s.handleLine("/as mallory")).toEqual({ ok: false });
    expect(all()).toContain(`There is no user "mallory" here; pick one of alice, bob, carol, dave.`);
    expect(s.user).toBe("alice");
  });

  test("/as refuses prototype names without a cast too (a configured console takes any user id)", async () => {
    const out: string[] = [];
    const s = createConsoleSession({
      pipeline: h.pipeline,
      outcomes: { records: h.audits },
      initialUser: "console",
      io: { write: (t) => out.push(t), ask: async () => undefined },
    });
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(await s.handleLine(`/as ${name}`)).toEqual({ ok: false });
      expect(out.join("\n")).toContain(`"${name}" cannot be a user name; pick another.`);
    }
    expect(s.user).toBe("console");
    expect(await s.handleLine("/as U0BOB")).toEqual({ ok: true });
    expect(s.user).toBe("U0BOB");
  });

  test("a multi-line secret (a PEM private key) is read line by line until an empty line", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = String(privateKey.export({ type: "pkcs8", format: "pem" }))
      .trim()
      .split("\n");
    const { s, all } = session([...pem, "", "never read"]);
    // A certificate the array can read: the help's own example (a real self-signed one, its key discarded).
    const example = createRegistry(RESOURCES).find("certificate", "create")?.command.examples[0] ?? "";
    expect(await s.handleLine(`/array ${example}`)).toEqual({ ok: true });
    const name = example.split(" ")[2];
    await s.handleLine(`/array certificate update ${name} --private-key`);
    await s.handleLine("1");
    expect(all()).toContain("Private key (paste it, then an empty line; not shown, kept nowhere): ");
    // The array parsed the key it received (lines joined back as typed) and only then found it is not the
    // certificate's own: a key cut at the first line, or its lines run together, would not parse.
    expect(all()).toContain("'private_key' does not belong to the certificate.");
    expect(all()).not.toContain("cannot be read");
    for (const line of pem.slice(1, -1)) expect(all()).not.toContain(line);
  });

  test("a keytab file is given by its path on the console's machine, read there and uploaded, never shown", async () => {
    const dir = await mkdtemp(join(tmpdir(), "keytab-"));
    const file = join(dir, "nfs.keytab");
    await writeFile(file, Buffer.from(KEYTAB_BASE64, "base64"));
    const { s, all } = session([file]);
    await s.handleLine("/array keytab upload nfs-upload");
    expect(await s.handleLine("1")).toEqual({ ok: true });
    expect(all()).toContain("Keytab file (a path to the file, or its base64 then an empty line;");
    const made = [...(h.sims.get("lab-1")?.state.generic.get("/keytabs")?.items.keys() ?? [])];
    expect(made.filter((k) => k.startsWith("nfs-upload."))).toEqual(["nfs-upload.1", "nfs-upload.2"]);
    expect(all()).not.toContain(KEYTAB_BASE64.slice(8, 40));
    await rm(dir, { recursive: true });
  });

  test("a prompt reads the typed name from the next answer", async () => {
    const { s, all } = session(["old-share"]);
    await s.handleLine("/array fs eradicate old-share");
    await s.handleLine("/as dave");
    expect(await s.handleLine("1")).toEqual({ ok: true });
    expect(all()).toContain("Type old-share to go ahead: ");
    expect(all()).toContain("Eradicated old-share on lab-1");
  });

  test("a prompt for a request that can no longer happen is not asked: the check's answer is printed", async () => {
    const { s, all, out } = session();
    await s.handleLine("/as bob");
    await s.handleLine("/array fs destroy logs");
    expect(await s.handleLine("1")).toEqual({ ok: true });
    await s.handleLine("/as alice");
    await s.handleLine("/array fs eradicate logs");
    expect(all()).toContain("[1] Approve");
    // Recovered on the array behind the bot's back, before anyone approves.
    const fs = h.sims.get("lab-1")?.state.fileSystems.get("logs");
    if (!fs) throw new Error("no file system logs");
    fs.destroyed = false;
    await s.handleLine("/as dave");
    const before = out.length;
    // Not ok: the click carried nothing out.
    expect(await s.handleLine("1")).toEqual({ ok: false });
    const after = out.slice(before).join("\n");
    expect(after).toContain("logs is not destroyed any more");
    expect(after).not.toContain("Type logs to go ahead");
    expect(h.sims.get("lab-1")?.state.fileSystems.get("logs")).toBeDefined();
  });

  test("failures are reported as failed lines; help and quit are console commands", async () => {
    const { s, all } = session();
    expect(await s.handleLine("/array fs lsit")).toEqual({ ok: false });
    expect(await s.handleLine("7")).toEqual({ ok: false });
    expect(await s.handleLine("hello")).toEqual({ ok: false });
    expect(all()).toContain("Commands start with /array");
    expect(await s.handleLine("# a comment")).toEqual({ ok: true });
    expect(await s.handleLine("/help")).toEqual({ ok: true });
    expect(await s.handleLine("/quit")).toEqual({ ok: true, quit: true });
  });
});
