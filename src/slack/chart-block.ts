/**
 * Slack's data_visualization block for a chart the message carries as data (src/core/presentation/chart/native.ts): the
 * caption as its title, the shared categories on the x axis, one data point per category for every series.
 */
import type { NativeChart } from "../core/presentation/message.js";
import type { SlackBlock } from "./block-render.js";

export /** A line chart Slack draws: the caption as its title, one data point per category for every series. */
function dataVisualization(c: NativeChart): SlackBlock {
  return {
    type: "data_visualization",
    title: c.title,
    chart: {
      type: "line",
      series: c.series.map((s) => ({
        name: s.name,
        data: s.values.map((value, i) => ({ label: c.categories[i] ?? "", value })),
      })),
      axis_config: { categories: c.categories, ...(c.yLabel ? { y_label: c.yLabel } : {}) },
    },
  };
}
