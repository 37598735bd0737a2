/**
 * A robust straight-line fit for capacity history: the Theil–Sen estimator (the median of the slopes between
 * every pair of points) with Sen's distribution-free confidence interval for the slope. One bad sample (a
 * burst of writes, a big delete) moves a least-squares line; it barely moves the median slope.
 */

export interface LinearFit {
  /** Per x unit. */
  slope: number;
  /** The fitted value at `x0`. */
  level: number;
  x0: number;
  /** Confidence interval of the slope (Sen, 95 % by default). */
  slopeLow: number;
  slopeHigh: number;
  /** Median absolute residual × 1.4826: a robust standard deviation of the points around the line. */
  spread: number;
  n: number;
  /** The effective number of independent samples (n discounted for autocorrelation); sets the interval. */
  nEff: number;
}

/** Above this many points the pairwise slopes are computed on an even subsample (n² grows fast). */
export const MAX_FIT_POINTS = 1000;

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const sortNum = (xs: number[]) => xs.sort((a, b) => a - b);

/**
 * Fits y = level + slope × (x − x0) with x0 the last x. Needs at least 3 points with distinct x; returns
 * undefined otherwise. `z` sets the interval's width (1.96 for 95 %).
 */
export function theilSen(points: readonly (readonly [number, number])[], z = 1.96): LinearFit | undefined {
  const finite = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const step = Math.max(1, Math.ceil(finite.length / MAX_FIT_POINTS));
  const pts = finite.filter((_, i) => i % step === 0);
  const n = pts.length;
  if (n < 3) return undefined;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) {
    const [xi, yi] = pts[i] as readonly [number, number];
    for (let j = i + 1; j < n; j++) {
      const [xj, yj] = pts[j] as readonly [number, number];
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi));
    }
  }
  if (slopes.length === 0) return undefined;
  const sorted = Float64Array.from(slopes).sort();
  const N = sorted.length;
  const slope = median(Array.from(sorted.subarray(Math.floor((N - 1) / 2), Math.floor(N / 2) + 1)));
  const x0 = Math.max(...pts.map(([x]) => x));
  const level = median(sortNum(pts.map(([x, y]) => y - slope * (x - x0))));
  const residuals = pts.map(([x, y]) => y - (level + slope * (x - x0)));
  const nEff = effectiveSize(residuals);
  // Sen (1968): the interval's ends are order statistics of the slopes, z standard deviations of Kendall's S
  // away from the middle. Computed for the effective sample size and applied as quantiles of every slope, so
  // samples that are not independent (hourly space readings usually are not) widen the interval.
  const pairs = (nEff * (nEff - 1)) / 2;
  const c = z * Math.sqrt((nEff * (nEff - 1) * (2 * nEff + 5)) / 18);
  const q = Math.max(0, (pairs - c) / 2 / pairs);
  const lo = Math.max(0, Math.min(N - 1, Math.floor(q * N)));
  const hi = Math.max(0, Math.min(N - 1, Math.ceil((1 - q) * N) - 1));
  return {
    slope,
    level,
    x0,
    slopeLow: sorted[lo] ?? slope,
    slopeHigh: sorted[hi] ?? slope,
    spread: 1.4826 * median(sortNum(residuals.map(Math.abs))),
    n,
    nEff,
  };
}

/**
 * n × (1 − ρ) / (1 + ρ), with ρ the lag-1 autocorrelation of the residuals: runs of readings on the same side
 * of the line carry less information than independent ones. Never below 3 nor above n.
 */
export function effectiveSize(residuals: readonly number[]): number {
  const n = residuals.length;
  const m = residuals.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = (residuals[i] ?? 0) - m;
    den += d * d;
    if (i > 0) num += d * ((residuals[i - 1] ?? 0) - m);
  }
  const rho = den > 0 ? Math.min(0.95, Math.max(0, num / den)) : 0;
  return Math.min(n, Math.max(3, (n * (1 - rho)) / (1 + rho)));
}

export interface Crossing {
  /** Best estimate of when the line reaches the target (x units); undefined when it never does. */
  at?: number;
  /** Earliest and latest plausible: steepest slope from the high level, shallowest from the low one. */
  earliest?: number;
  /** Undefined when the shallow end of the interval never reaches the target (not growing for sure). */
  latest?: number;
  /** Already at or above the target. */
  reached: boolean;
}

/**
 * When the fitted line reaches `target`. The range combines the slope's interval with the level's
 * uncertainty (± 2 × spread / √nEff around the fitted level, at least what the slope interval implies).
 */
export function crossing(fit: LinearFit, target: number): Crossing {
  const levelErr = (2 * fit.spread) / Math.sqrt(fit.nEff);
  if (fit.level >= target) return { reached: true };
  const when = (level: number, slope: number) =>
    slope > 0 ? fit.x0 + Math.max(0, target - level) / slope : undefined;
  const at = when(fit.level, fit.slope);
  const earliest = when(fit.level + levelErr, Math.max(fit.slopeHigh, fit.slope));
  const latest = when(fit.level - levelErr, Math.min(fit.slopeLow, fit.slope));
  return {
    reached: false,
    ...(at === undefined ? {} : { at }),
    ...(earliest === undefined ? {} : { earliest }),
    ...(latest === undefined ? {} : { latest }),
  };
}

/** The fitted line and its band at x: the band widens with distance as the slope's interval does. */
export function bandAt(fit: LinearFit, x: number): [number, number, number] {
  const d = x - fit.x0;
  const levelErr = (2 * fit.spread) / Math.sqrt(fit.nEff);
  const a = fit.level + fit.slopeLow * d;
  const b = fit.level + fit.slopeHigh * d;
  return [fit.level + fit.slope * d, Math.min(a, b) - levelErr, Math.max(a, b) + levelErr];
}
