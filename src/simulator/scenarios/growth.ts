/**
 * "growth": the demo array whose used space grows at a known rate with noise, so a capacity forecast can be
 * checked against the true date the array fills. With u0 the space the demo objects use when the scenario is
 * created (at t0), used space at array time t is
 *   used(t) = u0 + rate × (t − t0) + noise(t),   noise uniform in ±1 % of u0, new every hour,
 * and the array is full at t0 + GROWTH_DAYS_TO_FULL days (recorded in `effects.truth`).
 */
import { noise } from "../models/random.js";
import type { SimState } from "../state.js";
import { seedDemo } from "./demo.js";
import { DAY, HOUR } from "./units.js";

export const GROWTH_DAYS_TO_FULL = 75;
const NOISE_FRACTION = 0.01;

export function seedGrowth(state: SimState): void {
  seedDemo(state);
  const t0 = state.clock();
  let u0 = 0;
  for (const fs of state.fileSystems.values()) u0 += fs.space.unique + fs.space.snapshots;
  for (const b of state.buckets.values()) u0 += b.space.unique + b.space.snapshots;
  const rate = (state.array.capacity - u0) / (GROWTH_DAYS_TO_FULL * DAY);
  state.effects = {
    spaceUsed(type, t) {
      if (type !== "array") return undefined;
      const wobble = (2 * noise(state.seed, 0x6707, Math.floor(t / HOUR)) - 1) * NOISE_FRACTION * u0;
      return Math.max(0, u0 + rate * (t - t0) + wobble);
    },
    truth: { fullAt: t0 + GROWTH_DAYS_TO_FULL * DAY, bytesPerDay: rate * DAY, usedAtStart: u0 },
  };
}
