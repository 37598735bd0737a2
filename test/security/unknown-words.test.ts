/**
 * An unknown resource or verb is named in the answer only when it reads as a word (issue 39: no raw text
 * outlives its parse). A JSON body, a URL with credentials or a `key=value` typed where a command goes is not
 * echoed: the answer stays in chat history and the audit, and such text is where secrets are typed.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const said = (effects: unknown) => JSON.stringify(effects);

test.each([
  '{"password":"hunter3pw"}',
  "{password:hunter3pw} list",
  "https://admin:hunter3pw@fb.example/api list",
  "password=hunter3pw list",
  'fs {"password":"hunter3pw"}',
  "fs password=hunter3pw",
])("`%s` is refused without quoting the secret", async (line) => {
  const out = said(await h.run("carol", line));
  expect(out).not.toContain("hunter3pw");
  expect(out).toMatch(/not something I know|not a fs command|Unexpected words|not a command/);
});

test("an unknown word that reads as a word is still named, with its suggestion", async () => {
  expect(said(await h.run("carol", "fsx list"))).toContain(
    "`fsx` is not something I know. Did you mean `fs`",
  );
});
