/** What every Slack listener is handed: the pipeline, the effect runner's deps, and the cross-cutting parts. */
import type { RespondFn } from "@slack/bolt";
import type { ClickInput, Effect, Pipeline } from "../../core/context/pipeline-types.js";
import type { Logger } from "../../logger.js";
import type { CommandLabeler } from "../../ops/command-label.js";
import type { InFlight } from "../../ops/in-flight.js";
import type { Metrics } from "../../ops/metrics.js";
import type { DeliveryDedupe } from "../dedupe.js";
import type { EffectDeps, Responder } from "../effects.js";
import type { HomePort } from "../home.js";
import type { HomeRefresher } from "../home-refresh.js";
import type { SlackIdentity } from "../identity.js";
import type { PacedSlackClient } from "../paced-client.js";

/** Buttons owned by something other than the command pipeline (alert cards: action ids "alert.…"). */
export interface ClickRoute {
  matches(actionId: string): boolean;
  handleClick(input: ClickInput): Promise<Effect[]>;
}

export interface ListenerContext {
  pipeline: Pipeline;
  clickRoutes: readonly ClickRoute[];
  effects: EffectDeps;
  client: PacedSlackClient;
  identity: SlackIdentity;
  home: HomePort;
  /** Publishes a person's home again after a change they confirmed or approved, rate-limited per person. */
  homeRefresh?: HomeRefresher;
  inflight: InFlight;
  dedupe: DeliveryDedupe;
  metrics: Metrics;
  logger: Logger;
  /** The metric label of a command's text: its id, never what people typed. */
  commandLabel: CommandLabeler;
  now: () => number;
}

export function responder(respond: RespondFn): Responder {
  return async (msg) => {
    await respond(msg);
  };
}
