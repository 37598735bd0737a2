/** Command paths of several words: longest match, ids, the display helper, did-you-mean and help topics. */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import { helpMessage } from "../../src/core/catalogue/help.js";
import { checkDefinitions, createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine } from "../../src/core/pipeline/parse.js";
import { message } from "../../src/core/presentation/message.js";
import { commandId, commandPath } from "../../src/core/words/command-path.js";
import type { UserFacingError } from "../../src/errors.js";

const verb = (name: string, resource: string) =>
  defineCommand({
    verb: name,
    summary: `${name} it`,
    examples: [`${resource} ${name} x`],
    args: z.object({ name: z.string().optional() }),
    positional: ["name"],
    role: "viewer",
    run: async (a) => a.name ?? null,
    render: () => message("x", []),
  });

const resources = [
  defineResource({
    name: "snmp agent",
    area: "Network",
    summary: "SNMP agent",
    commands: [verb("show", "snmp agent")],
  }),
  defineResource({
    name: "snmp manager",
    aliases: ["snmp-manager"],
    area: "Network",
    summary: "SNMP managers",
    commands: [verb("list", "snmp manager"), verb("create", "snmp manager")],
  }),
  defineResource({ name: "snmp", area: "Network", summary: "SNMP", commands: [verb("mib", "snmp")] }),
];
const registry = createRegistry(resources, { partial: true });

function command(text: string) {
  const p = parseCommandLine(text, registry);
  if (p.kind !== "command") throw new Error(`help for ${p.topic}`);
  return { id: p.entry.id, path: p.entry.path, raw: p.bound.raw };
}

function refusal(text: string): UserFacingError {
  try {
    parseCommandLine(text, registry);
  } catch (err) {
    return err as UserFacingError;
  }
  throw new Error(`${text} parsed`);
}

describe("command paths", () => {
  test("the longest run of words naming a resource wins, then the verb, then arguments", () => {
    expect(command("snmp manager create trap1")).toEqual({
      id: "snmp.manager.create",
      path: "snmp manager create",
      raw: { name: "trap1" },
    });
    expect(command("snmp mib")).toMatchObject({ id: "snmp.mib" });
    expect(command("SNMP Agent show")).toMatchObject({ id: "snmp.agent.show" });
    expect(command("snmp-manager list")).toMatchObject({ id: "snmp.manager.list" });
  });

  test("ids and display paths convert both ways through one helper", () => {
    expect(commandId("replica-link bucket", "pause")).toBe("replica-link.bucket.pause");
    expect(commandPath("replica-link.bucket.pause")).toBe("replica-link bucket pause");
    expect(commandPath("fs.resize")).toBe("fs resize");
  });

  test("typos in either word of a noun, and in the verb, get suggestions", () => {
    expect(refusal("snmp managr list").suggestions).toContain("snmp manager");
    expect(refusal("snpm manager list").suggestions).toContain("snmp manager");
    const v = refusal("snmp manager lsit");
    expect(v.code).toBe("UNKNOWN_VERB");
    expect(v.message).toContain("snmp manager list");
  });

  test("help topics take the words or the id", () => {
    for (const topic of ["snmp manager create", "snmp.manager.create"]) {
      expect(helpMessage(registry, "viewer", topic).text).toBe("Help for /array snmp manager create");
    }
    expect(helpMessage(registry, "viewer", "snmp manager").text).toBe("Help for /array snmp manager");
    const p = parseCommandLine("help snmp manager", registry);
    expect(p).toEqual({ kind: "help", topic: "snmp manager" });
  });

  test("a verb may not equal the next word of a longer resource", () => {
    const clash = [
      defineResource({ name: "snmp", summary: "x", commands: [verb("manager", "snmp")] }),
      defineResource({ name: "snmp manager", summary: "x", commands: [verb("list", "snmp manager")] }),
    ];
    expect(checkDefinitions(clash)).toEqual(['snmp.manager: clashes with resource "snmp manager"']);
  });
});
