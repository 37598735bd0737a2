import { describe, expect, test } from "vitest";
import { z } from "zod";
import { argsSchemasBuilt, withLazyArgs } from "../../commands/catalogue/generic/lazy-args.js";
import { RESOURCES } from "../../commands/index.js";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import { configuredClasses, RESERVED_CLASSES } from "../../src/core/catalogue/gate-classes.js";
import { helpMessage } from "../../src/core/catalogue/help.js";
import { checkArgKeys, checkDefinitions, createRegistry } from "../../src/core/catalogue/registry.js";
import { message, unescapeText } from "../../src/core/presentation/message.js";
import { InternalError } from "../../src/errors.js";

const noop = {
  summary: "x",
  role: "viewer" as const,
  run: async () => null,
  render: () => message("x", []),
};

describe("registry checks at start-up", () => {
  test("the real command list is valid", () => {
    expect(checkDefinitions(RESOURCES)).toEqual([]);
  });

  test("every problem is reported in one error", () => {
    const bad = [
      defineResource({
        name: "fs",
        summary: "x",
        commands: [
          defineCommand({ ...noop, verb: "list", examples: ["fs list"], args: z.object({}) }),
          defineCommand({ ...noop, verb: "list", examples: ["fs list"], args: z.object({}) }),
          defineCommand({
            ...noop,
            verb: "show",
            examples: ["snap show x"],
            args: z.object({ name: z.string(), array: z.string() }),
            positional: ["name", "missing" as "name"],
          }),
          defineCommand({
            ...noop,
            verb: "kill",
            examples: ["fs kill"],
            args: z.object({}),
            destructive: () => "destroy",
          }),
        ],
      }),
      defineResource({
        name: "Snap",
        aliases: ["fs", "help"],
        summary: "x",
        defaultVerb: "nope",
        commands: [],
      }),
    ];
    let caught: unknown;
    try {
      createRegistry(bad);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InternalError);
    const problems = (caught as InternalError).details["problems"] as string[];
    expect(problems).toEqual(
      expect.arrayContaining([
        "fs.list: defined more than once",
        'fs.show: positional key "missing" is not in its args schema',
        'fs.show: argument "array" clashes with the global --array option',
        'fs.show: example "snap show x" does not start with "fs show"',
        "fs.kill: a destructive command needs an impact function",
        'resource word "Snap" must be lower-case letters, digits and dashes',
        'resource word "fs" is used by both "fs" and "Snap"',
        'resource word "help" is reserved',
        'Snap: default verb "nope" is not one of its commands',
        "Snap: has no commands",
        "fs kill: a destructive command must list the classes it may return in gateClasses",
        "destructive.destroy protects nothing: no command uses it; remove it from the schema or reserve it",
      ]),
    );
    // The ten above, the undeclared class, the four commands that declare no endpoints, and every unreserved
    // class this catalogue leaves unused.
    expect(problems).toHaveLength(15 + configuredClasses().length - Object.keys(RESERVED_CLASSES).length);
  });
});

describe("argument keys of schemas built on first use", () => {
  const lazyShow = withLazyArgs(() => z.object({ name: z.string(), array: z.string() }), {
    ...noop,
    verb: "show",
    examples: ["widget show x"],
    endpoints: ["GET /file-systems"],
    positional: ["name", "missing"],
  });
  const widget = defineResource({ name: "widget", summary: "x", commands: [lazyShow] });

  test("start-up leaves them unbuilt; the check over the whole registry builds and checks them", () => {
    const before = argsSchemasBuilt();
    const registry = createRegistry([widget], { partial: true });
    expect(argsSchemasBuilt()).toBe(before);
    expect(checkArgKeys(registry.all())).toEqual([
      'widget.show: positional key "missing" is not in its args schema',
      'widget.show: argument "array" clashes with the global --array option',
    ]);
  });

  test("every command of the real registry passes it", () => {
    expect(checkArgKeys(createRegistry(RESOURCES).all())).toEqual([]);
  });
});

describe("help is generated and filtered by role", () => {
  const registry = createRegistry(RESOURCES);
  const text = (m: ReturnType<typeof helpMessage>) =>
    m.blocks.map((b) => ("text" in b ? String(b.text) : "")).join("\n");

  test("a viewer sees only read commands", () => {
    const t = text(helpMessage(registry, "viewer", "fs"));
    expect(t).toContain("*list*");
    expect(t).toContain("*show*");
    expect(t).not.toContain("*resize*");
    expect(t).not.toContain("*eradicate*");
  });

  test("an operator sees changes but not eradicate; an admin sees everything", () => {
    const op = text(helpMessage(registry, "operator", "fs"));
    expect(op).toContain("*resize*");
    expect(op).not.toContain("*eradicate*");
    expect(text(helpMessage(registry, "admin", "fs"))).toContain("*eradicate*");
  });

  test("the overview lists verbs per role and states that sizes are binary", () => {
    const t = text(helpMessage(registry, "viewer"));
    expect(t).toContain("*fs* (list, show, mounts, top)");
    expect(t).toContain("G = GiB = 2^30 bytes");
  });

  test("resource summaries never list verbs, so nobody is shown verbs their role cannot run", () => {
    const viewer = text(helpMessage(registry, "viewer"));
    expect(viewer).toContain("*Storage*: *fs* (list, show, mounts, top)");
    for (const verb of ["create", "resize", "update", "destroy", "recover", "eradicate", "flag"]) {
      expect(viewer).not.toMatch(new RegExp(`\\b${verb}\\b`));
    }
    for (const r of registry.resources) {
      const verbs = r.commands.map((c) => c.verb);
      const named = verbs.filter((v) => new RegExp(`\\b${v}\\b`, "i").test(r.summary));
      expect(named, `${r.name}: ${r.summary}`).toEqual([]);
    }
  });

  test("examples reach the reader exactly, in a code block", () => {
    const m = helpMessage(registry, "viewer", "fs.list");
    const code = m.blocks.find((b) => b.type === "code");
    expect(code?.type === "code" && code.text).toContain(
      "/array fs list --name 'prod*' --sort used- --limit 20",
    );
  });

  test("someone without a role is told how to get one", () => {
    expect(text(helpMessage(registry, undefined))).toMatch(/not mapped to any role/);
  });

  test("command help shows usage, arguments and examples", () => {
    const t = unescapeText(text(helpMessage(registry, "operator", "fs.resize")));
    expect(t).toContain("/array fs resize <name> <size> [--dry-run] [--array <name>]");
    expect(t).toContain("/array fs resize projects 60T");
  });
});
