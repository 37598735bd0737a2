/** docs/security.md is generated from the access policy and the registry: it must be current. */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { securityMarkdown } from "../../commands/security-docs.js";
import { createRegistry } from "../../src/core/registry.js";
import { policyTable } from "../../src/rest-spec/policy.js";

test("docs/security.md is current (regenerate with npm run docs:security)", () => {
  const current = readFileSync(new URL("../../docs/security.md", import.meta.url), "utf8");
  expect(current).toBe(securityMarkdown(createRegistry(RESOURCES)));
});

test("it has a row for every endpoint of the table and the sections other work fills", () => {
  const md = securityMarkdown(createRegistry(RESOURCES));
  for (const r of policyTable()) expect(md).toContain(`| ${r.method} | ${r.path} | ${r.rule.role} |`);
  expect(md).toContain("## Redaction");
  expect(md).toContain("## Limits");
  expect(md).toMatch(/GET \/admins \| `expose` \| refused from chat/);
});
