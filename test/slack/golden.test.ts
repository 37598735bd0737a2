/**
 * Golden files for the Block Kit of the main answers and cards: the real pipeline over the demo simulator (its
 * clock pinned to the test's), rendered by the Slack layer, compared with test/slack/golden/<name>.json
 * (golden-2x/ on the REST 2.x run: helpers/golden-dir.ts).
 * Regenerate deliberately with `UPDATE_GOLDEN=1 npx vitest run test/slack/golden.test.ts` and review the diff;
 * otherwise a missing or different file fails.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { toSlack } from "../../src/slack/blocks.js";
import { type Harness, startHarness } from "../core/harness.js";
import { GOLDEN_DIR as DIR } from "./helpers/golden-dir.js";

// The one switch for rewriting the files; read here, in the test, not by the product.
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ shareClock: true });
});
afterAll(async () => h.close());

/** What Slack would receive for each message of `effects`: kind, text, blocks, and the names of files. */
function slackOf(effects: readonly Effect[]) {
  return effects.flatMap((e) => {
    if (e.kind !== "reply" && e.kind !== "post" && e.kind !== "update") return [];
    const p = toSlack(e.message);
    return [
      {
        effect: e.kind,
        visibility: e.message.visibility,
        text: p.text,
        blocks: p.blocks,
        files: p.files.map((f) => f.filename),
      },
    ];
  });
}

function golden(name: string, effects: readonly Effect[]): void {
  const file = join(DIR, `${name}.json`);
  const actual = `${JSON.stringify(slackOf(effects), null, 2)}\n`;
  if (UPDATE) writeFileSync(file, actual);
  expect(existsSync(file), `${file} is missing; run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

describe("Block Kit golden files", () => {
  test("answers: fs list, fs show, space, help, an error with a suggestion", async () => {
    golden("fs-list", await h.run("carol", "fs list --sort used- --limit 5"));
    golden("fs-show", await h.run("carol", "fs show projects"));
    golden("space", await h.run("carol", "space"));
    golden("help", await h.run("carol", "help"));
    golden("error-unknown-verb", await h.run("carol", "fs lsit"));
  });

  test("cards: dry run, confirmation, approval, approved and carried out, denied", async () => {
    golden("dry-run-resize", await h.run("bob", "fs resize scratch 4T --dry-run"));
    const confirm = await h.run("bob", "fs update media --no-smb");
    golden("confirm-card", confirm);
    golden("confirmed-result", await h.click("bob", confirm, "Confirm"));
    const approval = await h.run("bob", "fs resize builds 9T");
    golden("approval-card", approval);
    golden("approved-result", await h.click("alice", approval, "Approve"));
    const second = await h.run("bob", "fs resize scratch 4T");
    golden("denied-card", await h.click("alice", second, "Deny"));
  });

  // Last: every answer takes an id from the harness's counter, and the cards above name theirs.
  test("charts: a capacity forecast drawn by Slack (data_visualization, its summary beside it)", async () => {
    golden("forecast-chart", await h.run("carol", "space forecast"));
  });
});
