/** An array with its hardware and settings but no file systems, buckets, alerts or replication. */
import type { SimState } from "../state.js";
import { seedInfrastructure } from "./infrastructure.js";

export function seedEmpty(state: SimState): void {
  seedInfrastructure(state, { blades: 7 });
}
