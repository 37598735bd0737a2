/**
 * Regenerates the insight images and transcripts under docs/ (`npm run docs:charts`): a diagnose answer on
 * the slow-nfs scenario and a capacity forecast on the growth scenario, each with its chart, and the
 * transcript of both plus `space trash` (the marked blocks of docs/console.md and README.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../src/core/presentation/message.js";
import { renderText } from "../src/local/text-render.js";
import { startInsightEnv } from "./insight-env.js";

const DOCS = join(import.meta.dirname, "..", "..", "docs");

/** Rewrites the ```text block between `<!-- name:start … -->` and `<!-- name:end -->` in a Markdown file. */
function replaceBlock(file: string, name: string, text: string): void {
  const md = readFileSync(file, "utf8");
  const start = md.indexOf(`<!-- ${name}:start`);
  const end = md.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`${file} has no ${name} markers`);
  const head = md.indexOf("\n", start) + 1;
  writeFileSync(file, `${md.slice(0, head)}\`\`\`text\n${text}\n\`\`\`\n${md.slice(end)}`);
}

function save(msg: Message | undefined, png: string): string {
  if (!msg) throw new Error("no answer");
  const img = msg.blocks.find((b) => b.type === "image");
  if (img?.type !== "image" || !(img.file.content instanceof Uint8Array))
    throw new Error(`no chart in: ${msg.text}`);
  writeFileSync(join(DOCS, png), img.file.content);
  return renderText(msg, { describeImage: () => `[chart: docs/${png}]` }).text;
}

const env = await startInsightEnv([
  { name: "fb-lab-01", scenario: "slow-nfs" },
  { name: "fb-grow-01", scenario: "growth" },
]);
try {
  const diagnose = save((await env.run("diagnose --array fb-lab-01"))[0], "diagnose-chart.png");
  const forecast = save(
    (await env.run("space forecast --array fb-grow-01 --days 14"))[0],
    "forecast-chart.png",
  );
  const trashMsg = (await env.run("space trash --array fb-lab-01", "alice"))[0];
  const trash = trashMsg ? renderText(trashMsg).text : "";
  const out = [
    "alice> /array diagnose --array fb-lab-01",
    diagnose,
    "",
    "alice> /array space forecast --array fb-grow-01 --days 14",
    forecast,
    "",
    "alice> /array space trash --array fb-lab-01",
    trash,
  ].join("\n");
  replaceBlock(join(DOCS, "console.md"), "insight-transcript", out);
  // The README's diagnose excerpt is pasted from `npm start -- --demo slow-nfs`, as a reader reproduces it.
  console.log(out);
} finally {
  await env.close();
}
