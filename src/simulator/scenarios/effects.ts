/**
 * What an incident scenario changes in the synthetic series: the otherwise steady history of latency, client
 * load and used space is bent by these hooks, so commands that look for the abnormal (diagnose) or fit a
 * trend (space forecast) can be checked against a truth the scenario knows.
 */
export interface ScenarioEffects {
  /** Multipliers for array-wide performance of `protocol` ("all", "nfs", …) at array time t. */
  performance?(protocol: string, t: number): { latency: number; ops: number } | undefined;
  /** Multipliers for one client's load and latency at t. */
  client?(name: string, t: number): { ops: number; latency: number } | undefined;
  /** Used physical space of `type` ("array", "file-system", "object-store") at t. */
  spaceUsed?(type: string, t: number): number | undefined;
  /** What the scenario knows to be true, for tests and the docs. */
  truth?: Record<string, number | string>;
}
