/**
 * Slack's data_visualization block as documented (docs.slack.dev, block-kit/blocks/data-visualization-block;
 * changelog 2026-06-16), checked independently of src/slack: a title of 1 to 50 characters; a chart of type
 * line, bar or area with 1 to 6 uniquely named series whose data points carry a label from axis_config's
 * categories (labels of at most 20 characters, x_label and y_label at most 50) and a finite number, one point
 * per category; or a pie of 1 to 6 segments with labels of at most 20 characters and values above 0. A message
 * holds at most two of these blocks, and they belong in messages only.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number) => typeof v === "string" && v.trim() !== "" && v.length <= max;

export const MAX_CHARTS_PER_MESSAGE = 2;

function seriesChart(chart: Obj, at: string, out: string[]): void {
  const axis = chart["axis_config"];
  if (!isObj(axis) || !Array.isArray(axis["categories"]) || axis["categories"].length === 0) {
    out.push(`${at} axis_config.categories`);
    return;
  }
  const categories = axis["categories"] as unknown[];
  if (!categories.every((c) => isText(c, 20)))
    out.push(`${at} a category label is empty or over 20 characters`);
  if (new Set(categories).size !== categories.length) out.push(`${at} categories repeat`);
  for (const k of ["x_label", "y_label"])
    if (axis[k] !== undefined && !isText(axis[k], 50)) out.push(`${at} axis_config.${k}`);
  const series = chart["series"];
  if (!Array.isArray(series) || series.length < 1 || series.length > 6) {
    out.push(`${at} series: 1 to 6`);
    return;
  }
  const names = new Set<unknown>();
  series.forEach((s: unknown, si: number) => {
    if (!isObj(s) || typeof s["name"] !== "string" || s["name"].trim() === "") {
      out.push(`${at} series[${si}] name`);
      return;
    }
    if (names.has(s["name"])) out.push(`${at} series name ${s["name"]} repeats`);
    names.add(s["name"]);
    const data = s["data"];
    if (!Array.isArray(data)) {
      out.push(`${at} series[${si}] data`);
      return;
    }
    const labels = data.map((p: unknown) => (isObj(p) ? p["label"] : undefined));
    if (labels.some((l) => !categories.includes(l)))
      out.push(`${at} series[${si}] a label is not a category`);
    if (new Set(labels).size !== labels.length || labels.length !== categories.length)
      out.push(`${at} series[${si}] needs one point per category`);
    if (
      data.some((p: unknown) => !isObj(p) || typeof p["value"] !== "number" || !Number.isFinite(p["value"]))
    )
      out.push(`${at} series[${si}] a value is not a finite number`);
  });
}

export function dataVisualizationViolations(b: Obj, at: string, surface: "message" | "view"): string[] {
  const out: string[] = [];
  if (surface !== "message") out.push(`${at} data_visualization outside a message`);
  if (!isText(b["title"], 50)) out.push(`${at} data_visualization title: 1 to 50 characters`);
  const chart = b["chart"];
  if (!isObj(chart)) return [...out, `${at} data_visualization chart`];
  switch (chart["type"]) {
    case "line":
    case "bar":
    case "area":
      seriesChart(chart, at, out);
      break;
    case "pie": {
      const segments = chart["segments"];
      if (!Array.isArray(segments) || segments.length < 1 || segments.length > 6)
        out.push(`${at} pie segments`);
      else if (
        segments.some(
          (s: unknown) =>
            !isObj(s) || !isText(s["label"], 20) || typeof s["value"] !== "number" || !(s["value"] > 0),
        )
      )
        out.push(`${at} pie segment label or value`);
      break;
    }
    default:
      out.push(`${at} chart type ${String(chart["type"])}`);
  }
  return out;
}
