/** How the bot reaches a simulated array: its URL, the token it accepts, and trust in its own CA (TLS stays verified). */
import type { ResolvedArrayConfig } from "../config/arrays.js";
import { Secret } from "../config/secret.js";
import { DEFAULT_API_TOKEN } from "./options.js";

/** The demo's tuning; tests pass smaller pools and shorter timeouts through `over`. */
export function simulatedArrayConfig(
  name: string,
  sim: { readonly url: string; readonly ca: string },
  over: Partial<Omit<ResolvedArrayConfig, "name" | "origin" | "ca">> = {},
): ResolvedArrayConfig {
  return {
    name,
    origin: sim.url,
    apiToken: new Secret(DEFAULT_API_TOKEN),
    ca: sim.ca,
    insecure: false,
    tags: [],
    connections: 4, // the config default
    rate: { maxConcurrent: 8, minSpacingMs: 0, maxQueue: 1000 },
    timeouts: { connectMs: 5000, readMs: 30_000 },
    downAfterFailures: 3,
    ...over,
  };
}
