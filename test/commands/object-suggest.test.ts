/** Did-you-mean for object names, as for nouns and verbs: `fs show hoem` → `home`. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe("a name that is not there", () => {
  test("fs show hoem suggests home", async () => {
    const text = textOf(await h.run("carol", "fs show hoem"));
    expect(text).toContain(`There is no file system named "hoem"`);
    expect(text).toContain("Did you mean `home`?");
  });

  test("a catalogue show (snmp manager) suggests the near name", async () => {
    expect(textOf(await h.run("carol", "snmp manager show nsm"))).toContain("Did you mean `nms`?");
  });

  test("a changing command refuses with the suggestion and sends nothing", async () => {
    const text = textOf(await h.run("bob", "fs resize projetcs 60T"));
    expect(text).toContain("Did you mean `projects`?");
    expect(text).not.toContain("Confirm");
  });

  test("no near name: the plain answer", async () => {
    const text = textOf(await h.run("carol", "fs show zzzzzzzz"));
    expect(text).toContain(`There is no file system named "zzzzzzzz"`);
    expect(text).not.toContain("Did you mean");
  });
});
