/** Rewrites the docs' console transcripts from real runs (npm run docs:transcripts); see ./transcripts.ts. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blocksOf, ROOT, runTranscript, TRANSCRIPT_DOCS } from "./transcripts.js";

for (const doc of TRANSCRIPT_DOCS) {
  const path = join(ROOT, doc);
  let markdown = readFileSync(path, "utf8");
  // Last block first, so the offsets of the ones before it stay right.
  for (const block of blocksOf(doc, markdown).reverse()) {
    const fresh = await runTranscript(block.name);
    markdown = `${markdown.slice(0, block.start)}${fresh}\n${markdown.slice(block.end).replace(/^\n/, "")}`;
    console.log(`${doc}: ${block.name}`);
  }
  writeFileSync(path, markdown);
}
