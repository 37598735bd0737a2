/** Writes docs/security.md from the access policy, the registry and docs/security/*.md (npm run docs:security). */
import { readFileSync, writeFileSync } from "node:fs";
import { RESOURCES } from "../commands/index.js";
import { SECURITY_PARTS, type SecurityParts, securityMarkdown } from "../commands/security-docs.js";
import { createRegistry } from "../src/core/catalogue/registry.js";

const target = new URL("../../docs/security.md", import.meta.url);
const parts = Object.fromEntries(
  SECURITY_PARTS.map(({ file }) => [
    file,
    readFileSync(new URL(`../../docs/security/${file}`, import.meta.url), "utf8"),
  ]),
) as SecurityParts;
writeFileSync(target, securityMarkdown(createRegistry(RESOURCES), parts));
console.log(`wrote ${target.pathname}`);
