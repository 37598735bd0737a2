/**
 * What /readyz reports: Slack connected, config loaded, not shutting down, the shared store reachable (always
 * true for the embedded store; a replica whose Redis is down is taken out of rotation), and a summary of which arrays
 * answer. An unreachable array does not make the bot unready (it still answers, and says the array is
 * down); it shows up in the summary for whoever watches the endpoint.
 */

import { unusableDetail } from "../flashblade/health-words.js";
import type { ArrayHealth as ArrayHealthState } from "../flashblade/types.js";

export interface ArrayHealth {
  name: string;
  reachable: boolean;
  /** Short reason when unreachable, or the API version when reachable. */
  detail?: string;
}

export type ArrayHealthSource = () => Promise<readonly ArrayHealth[]>;

export interface ReadinessReport {
  ready: boolean;
  slack: { mode: string; connected: boolean };
  config: { loaded: boolean };
  shuttingDown: boolean;
  store: { up: boolean; detail: string };
  arrays:
    | { total: number; reachable: number; unreachable: { name: string; detail?: string }[] }
    | { error: string };
}

export class Readiness {
  slackConnected = false;
  configLoaded = false;
  shuttingDown = false;
  /** The store's reachability; the Slack process sets it when its store can go down (Redis). */
  store: () => { up: boolean; detail: string } = () => ({ up: true, detail: "embedded" });

  constructor(
    readonly mode: string,
    private readonly arrays?: ArrayHealthSource,
    /** /readyz must answer quickly even when an array hangs. */
    private readonly arraysTimeoutMs = 2_000,
  ) {}

  async report(): Promise<ReadinessReport> {
    const store = this.store();
    const ready = this.slackConnected && this.configLoaded && !this.shuttingDown && store.up;
    return {
      ready,
      slack: { mode: this.mode, connected: this.slackConnected },
      config: { loaded: this.configLoaded },
      shuttingDown: this.shuttingDown,
      store,
      arrays: await this.arraySummary(),
    };
  }

  /** The arrays' summary alone (/healthz shows it; an array never makes the process unhealthy or unready). */
  arrayHealth(): Promise<ReadinessReport["arrays"]> {
    return this.arraySummary();
  }

  private async arraySummary(): Promise<ReadinessReport["arrays"]> {
    if (this.arrays === undefined) return { total: 0, reachable: 0, unreachable: [] };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("array health check timed out")), this.arraysTimeoutMs);
    });
    try {
      const list = await Promise.race([this.arrays(), timeout]);
      const unreachable = list
        .filter((a) => !a.reachable)
        .map((a) => (a.detail === undefined ? { name: a.name } : { name: a.name, detail: a.detail }));
      return { total: list.length, reachable: list.length - unreachable.length, unreachable };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The array pool's health as /readyz and App Home show it. */
export function arrayHealthFrom(health: () => readonly ArrayHealthState[]): ArrayHealthSource {
  return async () =>
    health().map((h) => {
      const detail = h.reachable
        ? h.version === undefined
          ? undefined
          : `REST ${h.version}`
        : unusableDetail(h);
      return detail === undefined
        ? { name: h.name, reachable: h.reachable }
        : { name: h.name, reachable: h.reachable, detail };
    });
}
