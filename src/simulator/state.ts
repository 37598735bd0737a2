/**
 * The simulated array's state. STUB: signatures agreed between the simulator's parts; the implementation
 * replaces the bodies.
 */
export type ScenarioName = "demo" | "empty";

export interface StateOptions {
  scenario: ScenarioName | { scale: { fileSystems: number } };
  /** Milliseconds since the epoch; injected so tests control time. */
  clock: () => number;
  arrayName: string;
  /** Seed for deterministic ids and synthetic series. */
  seed?: number;
}

// biome-ignore lint/suspicious/noEmptyInterface: filled in by the state implementation
export interface SimState {}

export function createState(_opts: StateOptions): SimState {
  throw new Error("not implemented");
}
