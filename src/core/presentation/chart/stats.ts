/** Summary figures of a series, as shown next to a chart: average, 95th percentile and peak. */

export interface SeriesSummary {
  avg: number;
  p95: number;
  max: number;
  /** How many finite values went in. */
  count: number;
}

/** Average, nearest-rank p95 and maximum of the finite values; undefined when there are none. */
export function summarize(values: Iterable<number | undefined>): SeriesSummary | undefined {
  const xs: number[] = [];
  for (const v of values) if (v !== undefined && Number.isFinite(v)) xs.push(v);
  if (xs.length === 0) return undefined;
  xs.sort((a, b) => a - b);
  const sum = xs.reduce((a, b) => a + b, 0);
  const rank = Math.max(1, Math.ceil(0.95 * xs.length));
  return { avg: sum / xs.length, p95: xs[rank - 1] ?? 0, max: xs[xs.length - 1] ?? 0, count: xs.length };
}
