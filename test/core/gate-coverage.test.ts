/**
 * The gate covers every destructive change, and every configured class guards something: turning a protocol
 * off is gated, a resize from unlimited is a shrink, a resize to the current size sends nothing, and the
 * registry refuses a class no command uses.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { RESOURCES } from "../../commands/index.js";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import {
  checkGateClasses,
  configuredClasses,
  RESERVED_CLASSES,
} from "../../src/core/catalogue/gate-classes.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { fileHarness } from "./file-harness.js";
import { startHarness, textOf } from "./harness.js";

const TIB = 2 ** 40;
const h = fileHarness();

const fs = (name: string) => h.sim().state.fileSystems.get(name);
const patches = () => h.sim().control.stats().requests["PATCH /api/1.12/file-systems"] ?? 0;

describe("turning a protocol off", () => {
  test("--no-smb waits for the requester's confirmation (class disable_protocol) and says who loses access", async () => {
    const before = patches();
    const card = await h.run("bob", "fs update media --no-smb");
    expect(textOf(card)).toContain("Confirm: update file system media on lab-1");
    expect(textOf(card)).toContain("Clients using SMB lose access to media at once.");
    expect(patches()).toBe(before);
    expect(fs("media")?.smb.enabled).toBe(true);
    expect(textOf(await h.click("bob", card, "Confirm"))).toContain("SMB: on → off");
    expect(fs("media")?.smb.enabled).toBe(false);
  });

  test("its policy is configurable like any other class", async () => {
    const strict = await startHarness({ config: { destructive: { disable_protocol: "deny" } } });
    try {
      expect(textOf(await strict.run("bob", "fs update projects --no-nfs"))).toContain(
        "disable protocol actions are turned off for this bot (destructive.disable_protocol: deny)",
      );
      // Turning one on is not destructive and runs at once.
      expect(textOf(await strict.run("bob", "fs update projects --http"))).toContain("HTTP: off → on");
    } finally {
      await strict.close();
    }
  });
});

describe("resize", () => {
  test("from unlimited to below usage is a shrink below usage, and says so", async () => {
    expect(fs("backups")?.provisioned).toBe(0);
    const card = textOf(await h.run("bob", "fs resize backups 50T"));
    expect(card).toContain("Approval needed: resize file system backups on lab-1");
    expect(card).toContain("Shrinks *backups* on lab-1 from unlimited to 50 TiB (used: 88.5 TiB).");
    expect(card).toContain("Overshoot: 38.5 TiB over the new size");
    expect(card).not.toContain("Grows");
  });

  test("to the current size answers 'already 50 TiB' and sends nothing", async () => {
    const before = patches();
    expect(fs("projects")?.provisioned).toBe(50 * TIB);
    const answer = await h.run("bob", "fs resize projects 50T");
    expect(textOf(answer)).toContain("projects on lab-1 is already 50 TiB; nothing was sent.");
    expect(answer.map((e) => e.kind)).toEqual(["reply"]);
    expect(patches()).toBe(before);
  });
});

describe("every configured class guards something", () => {
  test("the real catalogue passes: each class is used by a command or reserved for a named issue", () => {
    expect(checkGateClasses(RESOURCES)).toEqual([]);
    for (const why of Object.values(RESERVED_CLASSES)) expect(why).toMatch(/^#\d+ /);
    expect(configuredClasses()).toContain("disable_protocol");
  });

  test("a class that no command uses and nobody reserved stops the registry at start-up", () => {
    expect(checkGateClasses(RESOURCES, {})).toEqual(
      Object.keys(RESERVED_CLASSES).map(
        (cls) =>
          `destructive.${cls} protects nothing: no command uses it; remove it from the schema or reserve it`,
      ),
    );
  });

  test("a reserved class that a command now uses must leave the list; a destructive command must declare", () => {
    const cmd = (verb: string, gateClasses?: ["pause_replication"]) =>
      defineCommand({
        verb,
        summary: "x",
        examples: [`thing ${verb}`],
        role: "admin",
        args: z.object({}),
        impact: async () => ({
          target: "t",
          summary: rich`x`,
          facts: [],
          warnings: [],
          state: {},
          requests: [],
        }),
        destructive: () => "pause_replication",
        ...(gateClasses ? { gateClasses } : {}),
        run: async () => null,
        render: () => message("x", []),
      });
    const thing = defineResource({
      name: "thing",
      summary: "x",
      commands: [cmd("pause", ["pause_replication"]), cmd("zap")],
    });
    const problems = checkGateClasses([...RESOURCES, thing], { pause_replication: "#13" });
    expect(
      problems.some((p) =>
        /^destructive\.pause_replication is used by .*thing pause.*; remove it from RESERVED_CLASSES$/.test(
          p,
        ),
      ),
    ).toBe(true);
    expect(problems).toContain(
      "thing zap: a destructive command must list the classes it may return in gateClasses",
    );
    expect(() => createRegistry([...RESOURCES, thing])).toThrow(/thing zap: a destructive command must list/);
  });
});
