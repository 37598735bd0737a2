/**
 * The help overview keeps to what every array has, and still leads a person on a REST 2.x array to the 2.x-only
 * families: a "REST 2.x only" line names the first-class ones (FIRST_CLASS_2X, the catalogue's data) the role may
 * use, and `/array help 2x` lists every 2.x-only noun by family, in Slack's blocks and the console's text alike.
 */
import { describe, expect, test } from "vitest";
import { FIRST_CLASS_2X } from "../../commands/catalogue/overrides-2x.js";
import { RESOURCES } from "../../commands/index.js";
import { roleAtLeast } from "../../src/core/access/roles.js";
import { helpMessage } from "../../src/core/catalogue/help.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { renderText } from "../../src/local/text-render.js";

const registry = createRegistry(RESOURCES);
const text = (m: ReturnType<typeof helpMessage>) => renderText(m).text;

/** The nouns of the first-class families, read from the catalogue's paths through the registry. */
const featured = registry.resources.filter((r) => r.rest2Featured).map((r) => r.name);

describe("help on REST 2.x families", () => {
  test("every first-class family is marked, one noun per path of the list", () => {
    expect(featured).toHaveLength(FIRST_CLASS_2X.length);
  });

  test("the overview names each first-class family the role may use, and where the rest are", () => {
    for (const role of ["viewer", "operator", "admin"] as const) {
      const line = text(helpMessage(registry, role))
        .split("\n")
        .find((l) => l.startsWith("REST 2.x only:"));
      expect(line, role).toBeDefined();
      for (const name of featured) {
        const open = registry
          .all()
          .some((e) => e.resource.name === name && roleAtLeast(role, e.command.role));
        expect(new RegExp(`\\b${name}\\b`).test(line ?? ""), `${role} ${name}`).toBe(open);
      }
      expect(line).toContain("/array help 2x");
    }
  });

  test("help 2x lists every 2.x-only noun the role may use, by family", () => {
    const shown = text(helpMessage(registry, "admin", "2x"));
    expect(shown).toContain("commands only REST 2.x arrays have");
    for (const r of registry.resources.filter((x) => x.rest2Only)) {
      const [family = "", ...rest] = r.name.split(" ");
      // A family may sit in more than one area (`array`): one of its lines names the noun.
      const lines = shown.split("\n").filter((l) => new RegExp(`(?:: |, )${family}\\b`).test(l));
      expect(lines, r.name).not.toEqual([]);
      if (rest.length > 0)
        expect(
          lines.some((l) => l.includes(rest.join(" "))),
          r.name,
        ).toBe(true);
    }
    // A 1.x noun is not a 2.x-only one.
    expect(shown).not.toMatch(/(?:: |, )snmp\b/);
  });
});
