/** Forms from data: every changing command of the registry has one, its fields are its arguments, and a filled
 * form's line reads back, word for word, as the values typed. */
import { expect, test } from "vitest";
import type { z } from "zod";
import { RESOURCES } from "../../commands/index.js";
import { formFor, formLine } from "../../src/core/catalogue/forms.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { tokenize } from "../../src/core/words/tokenize.js";

const registry = createRegistry(RESOURCES);

test("every changing command has a form whose fields are its arguments; reads have none", () => {
  let forms = 0;
  for (const e of registry.all()) {
    const form = formFor(registry, e.path);
    if (!e.command.impact) {
      expect(form, e.path).toBeUndefined();
      continue;
    }
    const keys = Object.keys(e.command.args.shape as Record<string, z.ZodType>);
    if (keys.length === 0) continue;
    forms++;
    expect(form?.fields.map((f) => f.key).sort(), e.path).toEqual([...keys].sort());
    expect(formLine(form ?? { path: e.path, title: "", summary: "", fields: [] }, {}), e.path).toBe(e.path);
  }
  expect(forms).toBeGreaterThan(50);
});

test("a filled form's line reads back as the values typed, quotes and blanks included", () => {
  const form = formFor(registry, "fs create");
  if (!form) throw new Error("fs create has no form");
  const line = formLine(form, { name: "q'a", size: "2 T", nfs: true, smb: false });
  expect(tokenize(line).map((t) => t.text)).toEqual(["fs", "create", "q'a", "2 T", "--nfs"]);
});
