/**
 * The same fact reads the same everywhere: on the same demo data, `diagnose` reports a replica link exactly when
 * `replication status` does not call it ok, with the same verdict and the same lag against the same interval.
 * The links are the ones replication status lists, not a list typed here.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cellValue } from "../../src/core/presentation/cell-marks.js";
import { type Harness, messagesOf, textOf } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

describe("diagnose and replication status agree", () => {
  test("every link: reported by diagnose iff status says it is not ok, with the same verdict and ratio", async () => {
    const status = messagesOf(await h.run("carol", "replication status --array fb-lab-01"))[0];
    const table = status?.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no replication table");
    const diagnosis = textOf(await h.run("carol", "diagnose --array fb-lab-01"));
    expect(table.rows.length).toBeGreaterThan(3);
    const verdicts = new Set<string>();
    for (const row of table.rows) {
      const verdict = cellValue(row["verdict"] ?? "");
      verdicts.add(verdict);
      const link = (row["link"] ?? "").replace(/\./g, "\\.");
      const said = new RegExp(
        `Replication (\\w+)\\*: (?:file system|bucket) ${link} lags [^,]+, ([\\d.]+)×`,
      ).exec(diagnosis);
      if (verdict === "ok") {
        expect(said, `${row["link"]} is ok in replication status`).toBeNull();
        continue;
      }
      expect(said?.[1], `${row["link"]} in diagnose`).toBe(verdict);
      expect(`${said?.[2]}×`).toBe(row["ratio"]);
    }
    // The demo has links of every verdict, so each branch above ran.
    expect([...verdicts].sort()).toEqual(["behind", "broken", "ok", "paused"]);
  });
});
