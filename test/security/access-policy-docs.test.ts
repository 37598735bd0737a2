/** docs/security.md is generated from the access policy and the registry: it must be current. */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { SECURITY_PARTS, type SecurityParts, securityMarkdown } from "../../commands/security-docs.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { policyTable } from "../../src/rest-spec/policy.js";

const parts = Object.fromEntries(
  SECURITY_PARTS.map(({ file }) => [
    file,
    readFileSync(new URL(`../../docs/security/${file}`, import.meta.url), "utf8"),
  ]),
) as SecurityParts;

test("docs/security.md is current (regenerate with npm run docs:security)", () => {
  const current = readFileSync(new URL("../../docs/security.md", import.meta.url), "utf8");
  expect(current).toBe(securityMarkdown(createRegistry(RESOURCES), parts));
});

test("it has a row for every endpoint of the table and the sections other work fills", () => {
  const md = securityMarkdown(createRegistry(RESOURCES), parts);
  for (const r of policyTable()) expect(md).toContain(`| ${r.method} | ${r.path} | ${r.rule.role} |`);
  expect(md).toContain("## Redaction");
  expect(md).toContain("## Limits");
  expect(md).toContain("## Names");
  for (const { file } of SECURITY_PARTS) expect(md).toContain(parts[file].trim().split("\n")[0]);
  expect(md).toMatch(/GET \/admins \| `expose_api_token` \(1.x `expose`\) \| refused from chat/);
  expect(md).toMatch(/GET \/admins\/api-tokens \| `expose_api_token` \| refused from chat/);
});
