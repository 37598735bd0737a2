/** Writes docs/commands.md from the registry and what hand-written commands send (npm run docs:commands). */
import { writeFileSync } from "node:fs";
import { commandsMarkdown } from "../commands/docs.js";
import { RESOURCES } from "../commands/index.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import { observeRequests } from "./observe-requests.js";

const target = new URL("../../docs/commands.md", import.meta.url);
const registry = createRegistry(RESOURCES);
writeFileSync(target, commandsMarkdown(registry, await observeRequests(registry)));
console.log(`wrote ${target.pathname}`);
