/** Writes docs/security.md from the access policy and the registry (npm run docs:security). */
import { writeFileSync } from "node:fs";
import { RESOURCES } from "../commands/index.js";
import { securityMarkdown } from "../commands/security-docs.js";
import { createRegistry } from "../src/core/registry.js";

const target = new URL("../../docs/security.md", import.meta.url);
writeFileSync(target, securityMarkdown(createRegistry(RESOURCES)));
console.log(`wrote ${target.pathname}`);
