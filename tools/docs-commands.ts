/** Writes docs/commands.md from the registry (npm run docs:commands). */
import { writeFileSync } from "node:fs";
import { commandsMarkdown } from "../commands/docs.js";
import { RESOURCES } from "../commands/index.js";
import { createRegistry } from "../src/core/registry.js";

const target = new URL("../../docs/commands.md", import.meta.url);
writeFileSync(target, commandsMarkdown(createRegistry(RESOURCES)));
console.log(`wrote ${target.pathname}`);
