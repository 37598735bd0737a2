/**
 * Slack's Block Kit limits, checked independently of src/slack (so the renderer is not graded by its own
 * rules). The fake Web API refuses payloads that break them, as Slack does with invalid_blocks.
 */

import { dataVisualizationViolations, MAX_CHARTS_PER_MESSAGE } from "./chart-rules.js";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const textOf = (v: unknown): string => (isObj(v) && typeof v["text"] === "string" ? v["text"] : "");

export function blockKitViolations(blocks: unknown, surface: "message" | "view" = "message"): string[] {
  const out: string[] = [];
  if (!Array.isArray(blocks)) return ["blocks is not an array"];
  const maxBlocks = surface === "message" ? 50 : 100;
  if (blocks.length > maxBlocks) out.push(`${blocks.length} blocks > ${maxBlocks}`);
  const actionIds = new Set<string>();
  let tables = 0;
  let charts = 0;
  let chars = 0;
  blocks.forEach((b, i) => {
    const at = `blocks[${i}]`;
    if (!isObj(b)) {
      out.push(`${at} is not an object`);
      return;
    }
    switch (b["type"]) {
      case "header": {
        const t = textOf(b["text"]);
        chars += t.length;
        if (t.length === 0 || t.length > 150) out.push(`${at} header text length ${t.length}`);
        break;
      }
      case "section": {
        const t = textOf(b["text"]);
        chars += t.length;
        const fields = b["fields"];
        if (b["text"] === undefined && fields === undefined) out.push(`${at} section without text or fields`);
        if (b["text"] !== undefined && (t.length === 0 || t.length > 3000))
          out.push(`${at} section text ${t.length}`);
        if (Array.isArray(fields)) {
          if (fields.length > 10) out.push(`${at} ${fields.length} fields`);
          for (const f of fields) {
            const ft = textOf(f);
            chars += ft.length;
            if (ft.length === 0 || ft.length > 2000) out.push(`${at} field text ${ft.length}`);
          }
        }
        break;
      }
      case "context": {
        const els = b["elements"];
        if (!Array.isArray(els) || els.length === 0 || els.length > 10) out.push(`${at} context elements`);
        else for (const e of els) chars += textOf(e).length;
        break;
      }
      case "actions": {
        const els = b["elements"];
        const bid = b["block_id"];
        if (bid !== undefined && (typeof bid !== "string" || bid.length === 0 || bid.length > 255))
          out.push(`${at} block_id`);
        if (!Array.isArray(els) || els.length === 0 || els.length > 25) {
          out.push(`${at} actions elements`);
          break;
        }
        for (const e of els) {
          if (!isObj(e)) continue;
          const id = String(e["action_id"] ?? "");
          if (e["type"] === "static_select") {
            // A menu: a placeholder up to 150 characters, 1 to 100 options (text up to 75, value up to 150).
            if (id.length === 0 || id.length > 255) out.push(`${at} action_id length ${id.length}`);
            if (actionIds.has(id)) out.push(`${at} duplicate action_id ${id}`);
            actionIds.add(id);
            const ph = textOf(e["placeholder"]);
            if (ph.length > 150) out.push(`${at} select placeholder ${ph.length}`);
            const opts = e["options"];
            if (!Array.isArray(opts) || opts.length === 0 || opts.length > 100) {
              out.push(`${at} select options`);
              continue;
            }
            for (const o of opts) {
              const t = textOf(isObj(o) ? o["text"] : undefined);
              const v = isObj(o) ? String(o["value"] ?? "") : "";
              if (t.length === 0 || t.length > 75) out.push(`${at} option text ${t.length}`);
              if (v.length === 0 || v.length > 150) out.push(`${at} option value ${v.length}`);
            }
            continue;
          }
          if (e["type"] !== "button") out.push(`${at} element type ${String(e["type"])}`);
          const label = textOf(e["text"]);
          const value = String(e["value"] ?? "");
          if (label.length === 0 || label.length > 75) out.push(`${at} button text ${label.length}`);
          if (id.length === 0 || id.length > 255) out.push(`${at} action_id length ${id.length}`);
          if (actionIds.has(id)) out.push(`${at} duplicate action_id ${id}`);
          actionIds.add(id);
          if (value.length > 2000) out.push(`${at} button value ${value.length}`);
          const c = e["confirm"];
          if (isObj(c)) {
            if (textOf(c["title"]).length > 100) out.push(`${at} confirm title`);
            if (textOf(c["text"]).length > 300) out.push(`${at} confirm text`);
            if (textOf(c["confirm"]).length > 30 || textOf(c["deny"]).length > 30)
              out.push(`${at} confirm buttons`);
          }
        }
        break;
      }
      case "table": {
        tables++;
        const rows = b["rows"];
        if (surface !== "message") out.push(`${at} table outside a message`);
        if (!Array.isArray(rows) || rows.length === 0 || rows.length > 100) out.push(`${at} table rows`);
        else
          for (const r of rows) {
            if (!Array.isArray(r) || r.length === 0 || r.length > 20) out.push(`${at} table row cells`);
            else
              for (const c of r) {
                const t = textOf(c);
                chars += t.length;
                if (t.length === 0) out.push(`${at} empty table cell`);
              }
          }
        break;
      }
      case "data_table": {
        // As Slack documents it (changelog 2026-05-20): a caption, a header row and 1 to 100 data rows, every
        // row with as many cells as the header, no rich_text in the header, page_size 1 to 100.
        tables++;
        const rows = b["rows"];
        if (surface !== "message") out.push(`${at} data_table outside a message`);
        if (typeof b["caption"] !== "string" || b["caption"].trim() === "")
          out.push(`${at} data_table caption`);
        const size = b["page_size"];
        if (
          size !== undefined &&
          (typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > 100)
        )
          out.push(`${at} data_table page_size`);
        if (!Array.isArray(rows) || rows.length < 2 || rows.length > 101) {
          out.push(`${at} data_table rows`);
          break;
        }
        const width = Array.isArray(rows[0]) ? rows[0].length : -1;
        rows.forEach((r: unknown, ri: number) => {
          if (!Array.isArray(r) || r.length === 0 || r.length > 20 || r.length !== width) {
            out.push(`${at} data_table row ${ri} cells`);
            return;
          }
          for (const c of r as Record<string, unknown>[]) {
            if (ri === 0 && c["type"] === "rich_text") out.push(`${at} rich_text in the header row`);
            if (c["type"] === "raw_number") {
              if (typeof c["value"] !== "number" || !Number.isFinite(c["value"]))
                out.push(`${at} raw_number value`);
              if (typeof c["text"] !== "string" || c["text"].length === 0) out.push(`${at} raw_number text`);
            } else if (c["type"] === "raw_text") {
              if (typeof c["text"] !== "string" || c["text"].length === 0)
                out.push(`${at} empty raw_text cell`);
            } else if (c["type"] !== "rich_text") out.push(`${at} data_table cell type ${String(c["type"])}`);
            chars += textOf(c).length;
          }
        });
        break;
      }
      case "rich_text": {
        chars += JSON.stringify(b).length;
        break;
      }
      case "data_visualization":
        charts++;
        out.push(...dataVisualizationViolations(b, at, surface));
        break;
      case "divider":
      case "image":
      case "input":
        break;
      default:
        out.push(`${at} unknown block type ${String(b["type"])}`);
    }
  });
  if (tables > 1) out.push(`${tables} table blocks in one message`);
  if (charts > MAX_CHARTS_PER_MESSAGE) out.push(`${charts} data_visualization blocks in one message`);
  // msg_blocks_too_long was seen near 13.2k characters (bolt-js #2509).
  if (surface === "message" && chars > 13_000) out.push(`about ${chars} characters of block text`);
  return out;
}
