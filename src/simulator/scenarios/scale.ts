/** An array with N file systems, for load tests: generated in one linear pass. */
import { blankFileSystem } from "../models/file-system.js";
import type { SimState } from "../state.js";
import { seedInfrastructure } from "./infrastructure.js";
import { GIB } from "./units.js";

export function seedScale(state: SimState, fileSystems: number): void {
  if (!Number.isInteger(fileSystems) || fileSystems < 0) {
    throw new RangeError(`scale.fileSystems must be a non-negative integer, got ${fileSystems}`);
  }
  seedInfrastructure(state, { blades: 15 });
  const now = state.clock();
  const width = Math.max(6, String(fileSystems).length);
  for (let i = 1; i <= fileSystems; i++) {
    const name = `fs-${String(i).padStart(width, "0")}`;
    const fs = blankFileSystem(state.newId(), name, now - (fileSystems - i) * 1000);
    const size = (1 + (i % 50)) * 100 * GIB;
    fs.provisioned = size;
    fs.nfs.v3_enabled = i % 3 !== 0;
    fs.nfs.v4_1_enabled = i % 2 === 0;
    fs.smb.enabled = i % 5 === 0;
    fs.space.data_reduction = 1 + (i % 7) / 4;
    fs.space.virtual = Math.round((size * ((i * 37) % 100)) / 100);
    fs.space.unique = Math.round(fs.space.virtual / fs.space.data_reduction);
    state.fileSystems.set(name, fs);
  }
}
