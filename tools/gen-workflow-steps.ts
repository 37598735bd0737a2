/**
 * Writes manifest.yml's `functions:` and docs/slack-setup.md's list of workflow steps from the registry's forms
 * (src/core/catalogue/workflow-steps.ts), so neither drifts from the steps the app registers (npm run gen:workflow-steps;
 * test/slack/manifest.test.ts fails when they differ).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { stringify } from "yaml";
import { RESOURCES } from "../commands/index.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import { workflowFunctions, workflowStepsMarkdown } from "../src/core/catalogue/workflow-steps.js";

const registry = createRegistry(RESOURCES);

const manifestUrl = new URL("../../manifest.yml", import.meta.url);
const manifest = readFileSync(manifestUrl, "utf8");
// The `functions:` block runs from its key to the next top-level key.
const block = /^functions:\n(?:[ #].*\n|\n)*/m;
if (!block.test(manifest)) throw new Error("manifest.yml has no functions: block");
const yaml = stringify(
  { functions: workflowFunctions(registry) },
  { lineWidth: 0, aliasDuplicateObjects: false },
);
writeFileSync(manifestUrl, manifest.replace(block, yaml));

const docUrl = new URL("../../docs/slack-setup.md", import.meta.url);
const doc = readFileSync(docUrl, "utf8");
const START = "<!-- workflow-steps:start (npm run gen:workflow-steps) -->\n";
const END = "<!-- workflow-steps:end -->";
const from = doc.indexOf(START);
const to = doc.indexOf(END);
if (from < 0 || to < from) throw new Error("docs/slack-setup.md has no workflow-steps markers");
writeFileSync(docUrl, doc.slice(0, from + START.length) + workflowStepsMarkdown(registry) + doc.slice(to));
console.log(`wrote ${manifestUrl.pathname} and ${docUrl.pathname}`);
